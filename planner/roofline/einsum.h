#pragma once

// einops-style einsum expressions with named dimensions (CS336 lecture 2: "batch seq1 hidden,
// batch seq2 hidden -> batch seq1 seq2"; dimensions missing on the right are summed; "..."
// stands for leading dimensions), and what evaluating one costs.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "planner/core/dtype.h"

namespace tally {

// One tensor of the expression: its dimension names in order; "..." is kept as the name "...".
struct EinsumOperand {
    std::vector<std::string> dims;
    bool has_ellipsis() const;
};

struct EinsumExpr {
    std::string text;
    std::vector<EinsumOperand> inputs;
    EinsumOperand output;
    // Every distinct dimension name, in order of first appearance (without "...").
    std::vector<std::string> names;
    bool uses_ellipsis = false;
};

// Parses "a b c, c d -> a b d". Names are [A-Za-z_][A-Za-z0-9_]* separated by spaces; "..." may
// appear once per operand. Throws SpecError(field, text, <what is wrong>) for: no "->", more than
// one "->", no inputs, an empty input, "," after "->", a name that is not an identifier
// (including einops' "(a b)" composition, which is not supported), a name repeated inside one
// operand (diagonals/traces are not supported), a repeated output name, an output name no input
// has, "..." twice in an operand, or "..." on the right when no input has it.
// An expression without spaces that does not read so is read as torch.einsum's and NumPy's
// compact form, one letter a dimension ("bhqd,bhkd->bhqk" is "b h q d, b h k d -> b h q k").
EinsumExpr parse_einsum(std::string_view text, const std::string& field = "expr");

// The cost of evaluating an expression, every tensor in `dtype`.
//
// FLOPs. For two inputs, one multiply and one add per term of the sum: 2 x the product of all
// dimension sizes, CS336 lecture 2's 2·B·D·K for [B x D] @ [D x K] (the exact count is
// 2·B·D·K - B·K: the first term of each sum needs no add; the lecture drops it, so do we).
// More than two inputs are contracted pairwise in the order that needs the fewest FLOPs, as
// torch.einsum does when opt_einsum is installed (torch.backends.opt_einsum; the order does not
// depend on how the inputs are written), each step costing 2 x the product of the sizes of the
// dimensions it touches when it sums one away, or 1 x (products only) when it sums nothing
// (outer/Hadamard products). A single input costs one add per term when it sums a dimension away
// (a reduction: product of all sizes) and nothing when it only rearranges.
//
// Bytes: each input read once and the output written once; each intermediate of a multi-input
// contraction written once and read back once, as the pairwise steps run.
struct EinsumCost {
    double flops = 0.0;
    double read_bytes = 0.0;
    double write_bytes = 0.0;
    double bytes() const { return read_bytes + write_bytes; }
    std::vector<std::string> summed;  // dimensions summed away ("...0", "...1" for "...")
};

// sizes: the named dimensions' sizes; ellipsis: the sizes "..." stands for. Throws
// SpecError naming `sizes_field` + "." + name for a dimension with no size, a size for a name the
// expression does not have, a size < 1, "..." used without sizes or sizes given for a "..." the
// expression does not use.
EinsumCost einsum_cost(const EinsumExpr& expr,
                       const std::vector<std::pair<std::string, std::int64_t>>& sizes,
                       const std::vector<std::int64_t>& ellipsis, DType dtype,
                       const std::string& sizes_field = "sizes");

}  // namespace tally
