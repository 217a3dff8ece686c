// The einsum parser and its cost. The first line of the input is the expression; the bytes after
// it give the dimension sizes (8 bytes each, little-endian, folded into [1, 9e15], the range the
// op reader allows), then the sizes "..." stands for, and the dtype. A parsed expression with
// sizes either is refused naming the field or costs a finite number of FLOPs and bytes.
#include <cstring>
#include <string>
#include <string_view>

#include "planner/core/errors.h"
#include "planner/roofline/einsum.h"
#include "tests/fuzz/fuzz_support.h"

using namespace tally;

namespace {

// Reads sizes off the tail of the input, 8 bytes at a time; 1 when the bytes run out.
class SizeSource {
public:
    explicit SizeSource(std::string_view bytes) : m_bytes(bytes) {}
    std::int64_t next() {
        std::uint64_t raw = 0;
        const std::size_t n = std::min<std::size_t>(8, m_bytes.size() - m_pos);
        if (n > 0) {  // memcpy from the null data() of an empty view is undefined
            std::memcpy(&raw, m_bytes.data() + m_pos, n);
        }
        m_pos += n;
        return static_cast<std::int64_t>(raw % 9'000'000'000'000'000ULL) + 1;
    }
    std::uint8_t byte() {
        return m_pos < m_bytes.size() ? static_cast<std::uint8_t>(m_bytes[m_pos++]) : 0;
    }

private:
    std::string_view m_bytes;
    std::size_t m_pos = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t newline = input.find('\n');
    const std::string_view text = input.substr(0, newline);
    EinsumExpr expr;
    try {
        expr = parse_einsum(text, "expr");
    } catch (const SpecError&) {
        return 0;
    }
    SizeSource source(newline == std::string_view::npos ? std::string_view{}
                                                        : input.substr(newline + 1));
    std::vector<std::pair<std::string, std::int64_t>> sizes;
    for (const std::string& name : expr.names) {
        sizes.emplace_back(name, source.next());
    }
    std::vector<std::int64_t> ellipsis;
    if (expr.uses_ellipsis) {
        const int count = 1 + source.byte() % 4;
        for (int i = 0; i < count; ++i) {
            ellipsis.push_back(source.next());
        }
    }
    const DType dtype = static_cast<DType>(source.byte() % 11);  // DType has 11 values
    try {
        const EinsumCost cost = einsum_cost(expr, sizes, ellipsis, dtype, "sizes");
        fuzz::require_finite(cost.flops, "einsum flops");
        fuzz::require_finite(cost.bytes(), "einsum bytes");
        fuzz::require(cost.flops >= 0.0 && cost.bytes() > 0.0, "einsum cost is positive");
    } catch (const SpecError&) {
    }
    return 0;
}
