#include "ui/plan/op_input.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <cmath>

#include "planner/core/spec.h"
#include "ui/common/number_text.h"

namespace tally::ui {

namespace {

// lupdate files the bare tr() calls of this file under "tally::ui" (the namespace they are in),
// so the lookup uses that context too.
QString tr(const char* text) {
    return QCoreApplication::translate("tally::ui", text);
}

std::optional<std::int64_t> wholeNumber(const QString& text) {
    const std::optional<double> v = parseNumber(text);
    if (!v || *v < 1.0 || *v != std::floor(*v) || *v > 9.0e15) {
        return std::nullopt;
    }
    return static_cast<std::int64_t>(*v);
}

}  // namespace

std::optional<OpSpec> makeOperation(OpKind kind, const QString& name, const QString& expr,
                                    const QString& sizes, DType dtype, QString* error,
                                    OperationInput* where) {
    auto fail = [error, where](const QString& message,
                               OperationInput in = OperationInput::sizes) -> std::optional<OpSpec> {
        if (error) {
            *error = message;
        }
        if (where) {
            *where = in;
        }
        return std::nullopt;
    };
    OpSpec op;
    op.kind = kind;
    op.dtype = dtype;
    // Unnamed operations take their kind's name, as the spec parser gives them (op_spec.h).
    op.name =
        name.trimmed().isEmpty() ? std::string(to_string(kind)) : name.trimmed().toStdString();
    if (kind == OpKind::einsum) {
        op.expr = expr.trimmed().toStdString();
        if (op.expr.empty()) {
            return fail(tr("Write the einsum expression, e.g. \"batch seq1 hidden, batch seq2 "
                           "hidden -> batch seq1 seq2\"."),
                        OperationInput::expression);
        }
    }
    static const QRegularExpression separators(QStringLiteral("[\\s,;]+"));
    const QStringList pairs = sizes.split(separators, Qt::SkipEmptyParts);
    for (const QString& pair : pairs) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            return fail(tr("\"%1\" is not name=value").arg(pair));
        }
        const QString key = pair.left(eq);
        const QString value = pair.mid(eq + 1);
        if (key == QStringLiteral("...")) {
            if (kind != OpKind::einsum) {
                return fail(tr("\"...\" sizes are for einsum expressions only"));
            }
            for (const QString& part : value.split(QLatin1Char('x'), Qt::SkipEmptyParts)) {
                const auto n = wholeNumber(part);
                if (!n) {
                    return fail(
                        tr("\"...\" size \"%1\" is not a whole number from 1 to 9e15").arg(part));
                }
                op.ellipsis.push_back(*n);
            }
            continue;
        }
        const auto n = wholeNumber(value);
        if (!n) {
            return fail(
                tr("size of %1: \"%2\" is not a whole number from 1 to 9e15").arg(key, value));
        }
        if (kind == OpKind::einsum) {
            op.sizes.emplace_back(key.toStdString(), *n);
            continue;
        }
        const bool takesM = kind == OpKind::matvec || kind == OpKind::matmul;
        const bool takesK = kind == OpKind::matmul;
        if (key == QStringLiteral("n")) {
            op.n = *n;
        } else if (key == QStringLiteral("m") && takesM) {
            op.m = *n;
        } else if (key == QStringLiteral("k") && takesK) {
            op.k = *n;
        } else {
            return fail(tr("%1 takes the sizes %2, not %3")
                            .arg(qs(to_string(kind)),
                                 takesK   ? QStringLiteral("m, k, n")
                                 : takesM ? QStringLiteral("m, n")
                                          : QStringLiteral("n"),
                                 key));
        }
    }
    if (kind != OpKind::einsum) {
        const bool missing = op.n < 1 ||
                             ((kind == OpKind::matvec || kind == OpKind::matmul) && op.m < 1) ||
                             (kind == OpKind::matmul && op.k < 1);
        if (missing) {
            return fail(
                tr("Give every size of the %1: %2")
                    .arg(qs(to_string(kind)), kind == OpKind::matmul ? QStringLiteral("m=… k=… n=…")
                                              : kind == OpKind::matvec ? QStringLiteral("m=… n=…")
                                                                       : QStringLiteral("n=…")));
        }
    }
    return op;
}

}  // namespace tally::ui
