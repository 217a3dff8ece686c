#pragma once

// What the user types to add an operation to the roofline, turned into the planner's OpSpec.
// Not a widget: the roofline panel uses it, the tests check it.

#include <QString>
#include <optional>

#include "planner/core/op_spec.h"

namespace tally::ui {

// sizes: "name=value" pairs separated by spaces or commas ("batch=8 seq=1024 hidden=4096"); for
// an einsum, "...=4x8" gives the sizes of "..."; for the other kinds the names are n (relu, gelu,
// dot), m n (matvec: an m x n matrix) and m k n (matmul: [m x k] @ [k x n]). Values are whole
// numbers from 1 to 9e15 and may use the suffixes K, M (1024 = 1K is not assumed: K is 1000).
// An empty name becomes the kind's name ("einsum"), as in a spec file.
// On a problem returns nullopt and sets error to a sentence naming the piece that is wrong, and
// `where` to the box it was typed into.
enum class OperationInput { expression, sizes };
std::optional<OpSpec> makeOperation(OpKind kind, const QString& name, const QString& expr,
                                    const QString& sizes, DType dtype, QString* error,
                                    OperationInput* where = nullptr);

}  // namespace tally::ui
