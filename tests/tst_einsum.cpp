// einops-style einsum: costs derived by hand, and every malformed expression rejected with a
// message naming the problem.
#include <QtTest>
#include <nlohmann/json.hpp>

#include "planner/core/errors.h"
#include "planner/io/spec_json.h"
#include "planner/roofline/einsum.h"
#include "planner/roofline/operations.h"

using namespace tally;

using Sizes = std::vector<std::pair<std::string, std::int64_t>>;
using Ellipsis = std::vector<std::int64_t>;
Q_DECLARE_METATYPE(Sizes)
Q_DECLARE_METATYPE(Ellipsis)

class TestEinsum : public QObject {
    Q_OBJECT

private slots:
    void cost_data();
    void cost();
    void compactFormReadsLetterByLetter();
    void matchesMatmul();
    void parseKeepsNames();
    void summedDimensions();
    void malformed_data();
    void malformed();
    void badSizes_data();
    void badSizes();
    void largestProductIsFinite();
    void opFromJsonNamesField_data();
    void opFromJsonNamesField();
};

void TestEinsum::cost_data() {
    QTest::addColumn<QString>("expr");
    QTest::addColumn<Sizes>("sizes");
    QTest::addColumn<Ellipsis>("ellipsis");
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");  // bf16: 2 bytes per value

    // CS336 lecture 2's linear layer: 2·B·D·K with batch and seq as the B.
    // 2·2·3·4·5 = 240 FLOPs; values 2·3·4 + 4·5 + 2·3·5 = 24 + 20 + 30 = 74 -> 148 bytes.
    QTest::newRow("linear layer with batch dims")
        << "batch seq hidden, hidden out -> batch seq out"
        << Sizes{{"batch", 2}, {"seq", 3}, {"hidden", 4}, {"out", 5}} << Ellipsis{} << 240.0
        << 148.0;
    // The lecture's attention scores: hidden summed; 2·2·3·4·5 = 240 FLOPs;
    // values 2·3·5 + 2·4·5 + 2·3·4 = 30 + 40 + 24 = 94 -> 188 bytes.
    QTest::newRow("attention scores")
        << "batch seq1 hidden, batch seq2 hidden -> batch seq1 seq2"
        << Sizes{{"batch", 2}, {"seq1", 3}, {"seq2", 4}, {"hidden", 5}} << Ellipsis{} << 240.0
        << 188.0;
    // "..." = [2, 3] leading dims on the left operand and the output:
    // 2·(2·3)·4·5·6 = 1440 FLOPs; values 6·4·5 + 5·6 + 6·4·6 = 120 + 30 + 144 = 294 -> 588 bytes.
    QTest::newRow("ellipsis batched matmul")
        << "... i k, k j -> ... i j" << Sizes{{"i", 4}, {"k", 5}, {"j", 6}} << Ellipsis{2, 3}
        << 1440.0 << 588.0;
    // Dot product: 2n = 20 FLOPs; values 10 + 10 + 1 (a scalar) = 21 -> 42 bytes.
    QTest::newRow("dot to scalar") << "i, i ->" << Sizes{{"i", 10}} << Ellipsis{} << 20.0 << 42.0;
    // One input, hidden summed: one add per term, 3·4 = 12; values 12 + 3 = 15 -> 30 bytes.
    QTest::newRow("reduce sum") << "batch hidden -> batch" << Sizes{{"batch", 3}, {"hidden", 4}}
                                << Ellipsis{} << 12.0 << 30.0;
    // "..." summed away by a reduction: 2·3·4 = 24 adds; values 24 + 4 = 28 -> 56 bytes.
    QTest::newRow("reduce over ellipsis")
        << "... d -> d" << Sizes{{"d", 4}} << Ellipsis{2, 3} << 24.0 << 56.0;
    // A transpose moves data and computes nothing: values 12 + 12 -> 48 bytes.
    QTest::newRow("transpose") << "a b -> b a" << Sizes{{"a", 3}, {"b", 4}} << Ellipsis{} << 0.0
                               << 48.0;
    // Outer product: nothing summed, one multiply per term: 3·4 = 12; values 3 + 4 + 12 -> 38.
    QTest::newRow("outer product")
        << "i, j -> i j" << Sizes{{"i", 3}, {"j", 4}} << Ellipsis{} << 12.0 << 38.0;
    // Hadamard product: 12 multiplies; values 12 + 12 + 12 = 36 -> 72 bytes.
    QTest::newRow("hadamard") << "a b, a b -> a b" << Sizes{{"a", 3}, {"b", 4}} << Ellipsis{}
                              << 12.0 << 72.0;
    // Three inputs, in the cheapest pairwise order (torch.einsum with opt_einsum):
    //   (a b, b c) -> a c sums b: 2·2·3·4 = 48, then (a c, c d) -> a d sums c: 2·2·4·5 = 80;
    //     128 in all, one intermediate a c of 8 values;
    //   (b c, c d) -> b d: 2·3·4·5 = 120, then (a b, b d) -> a d: 2·2·3·5 = 60; 180;
    //   (a b, c d) -> a b c d sums nothing: 120, then with b c: 2·120 = 240; 360.
    // Values 6 + 12 + 20 + 10 = 48, and the intermediate written and read: 48 + 2·8 = 64 -> 128
    // bytes.
    QTest::newRow("three inputs chained")
        << "a b, b c, c d -> a d" << Sizes{{"a", 2}, {"b", 3}, {"c", 4}, {"d", 5}} << Ellipsis{}
        << 128.0 << 128.0;
    // The same contraction written in another order costs the same.
    QTest::newRow("three inputs, another order")
        << "c d, b c, a b -> a d" << Sizes{{"a", 2}, {"b", 3}, {"c", 4}, {"d", 5}} << Ellipsis{}
        << 128.0 << 128.0;
    // A chain whose left-to-right order builds a large intermediate: b = 8, i = k = 64, j = l = 2.
    //   (b j k, b k l) -> b j l: 2·8·2·64·2 = 4,096, intermediate b j l of 32 values;
    //   (b i j, b j l) -> b i l: 2·8·64·2·2 = 4,096; 8,192 in all.
    //   (left to right: (b i j, b j k) -> b i k: 2·8·64·2·64 = 131,072, then 131,072 more.)
    // Values: b i j 1,024 + b j k 1,024 + b k l 1,024 + b i l 1,024 + 2·32 = 4,160 -> 8,320 B.
    QTest::newRow("three matmuls, cheapest order")
        << "b i j, b j k, b k l -> b i l"
        << Sizes{{"b", 8}, {"i", 64}, {"j", 2}, {"k", 64}, {"l", 2}} << Ellipsis{} << 8192.0
        << 8320.0;
    // Past 8 inputs the cheapest pair is taken at each step: a chain of 13 2 x 2 matrices,
    // each step 2·2·2·2 = 16 FLOPs (a pair that is not adjacent, an outer product of 16 terms,
    // costs the same and is not preferred), 12 steps = 192; 11 intermediates of 4 values.
    // Values 13·4 + 4 + 2·44 = 144 -> 288 bytes.
    {
        QString chain;
        Sizes sizes;
        for (int i = 0; i < 13; ++i) {
            chain += QStringLiteral("%1n%2 n%3")
                         .arg(i ? QStringLiteral(", ") : QString())
                         .arg(i)
                         .arg(i + 1);
        }
        for (int i = 0; i <= 13; ++i) {
            sizes.push_back({QStringLiteral("n%1").arg(i).toStdString(), 2});
        }
        QTest::newRow("13 inputs, greedy")
            << chain + QStringLiteral(" -> n0 n13") << sizes << Ellipsis{} << 192.0 << 288.0;
    }
    // Extra whitespace is fine.
    QTest::newRow("spacing") << "  i   j ,j  k->i k  " << Sizes{{"i", 2}, {"j", 3}, {"k", 4}}
                             << Ellipsis{} << 48.0 << 2.0 * (6 + 12 + 8);
}

void TestEinsum::cost() {
    QFETCH(QString, expr);
    QFETCH(Sizes, sizes);
    QFETCH(Ellipsis, ellipsis);
    QFETCH(double, flops);
    QFETCH(double, bytes);
    const EinsumCost c =
        einsum_cost(parse_einsum(expr.toStdString()), sizes, ellipsis, DType::bf16);
    QCOMPARE(c.flops, flops);
    QCOMPARE(c.bytes(), bytes);
    // fp32 doubles the bytes, not the FLOPs.
    const EinsumCost c32 =
        einsum_cost(parse_einsum(expr.toStdString()), sizes, ellipsis, DType::fp32);
    QCOMPARE(c32.flops, flops);
    QCOMPARE(c32.bytes(), 2.0 * bytes);
}

// torch.einsum's and NumPy's compact form, one letter a dimension ("bhqd,bhkd->bhqk"), reads as
// the named form with each letter a name, and costs the same.
void TestEinsum::compactFormReadsLetterByLetter() {
    const EinsumExpr compact = parse_einsum("bhqd,bhkd->bhqk");
    const EinsumExpr named = parse_einsum("b h q d, b h k d -> b h q k");
    QCOMPARE(compact.names, named.names);
    QCOMPARE(compact.inputs.size(), std::size_t{2});
    QCOMPARE(compact.output.dims, named.output.dims);
    QCOMPARE(compact.text, std::string("bhqd,bhkd->bhqk"));
    const Sizes sizes{{"b", 2}, {"h", 4}, {"q", 64}, {"k", 64}, {"d", 32}};
    // 2·b·h·q·k·d = 2·2·4·64·64·32 = 2,097,152 FLOPs.
    QCOMPARE(einsum_cost(compact, sizes, {}, DType::bf16).flops, 2097152.0);
    QCOMPARE(einsum_cost(compact, sizes, {}, DType::bf16).bytes(),
             einsum_cost(named, sizes, {}, DType::bf16).bytes());
    // With "..." as NumPy writes it.
    QCOMPARE(parse_einsum("...ij,...jk->...ik").output.dims,
             (std::vector<std::string>{"...", "i", "k"}));
    // A name the named form reads stays one name ("hidden,hidden->" is a dot product).
    QCOMPARE(parse_einsum("hidden,hidden->").names, std::vector<std::string>{"hidden"});
}

void TestEinsum::matchesMatmul() {
    // [m x k] @ [k x n] written as an einsum costs what matmul_cost says (2·m·k·n, mk + kn + mn).
    const EinsumCost e = einsum_cost(parse_einsum("m k, k n -> m n"),
                                     {{"m", 1024}, {"k", 1024}, {"n", 1024}}, {}, DType::bf16);
    const OpCost m = matmul_cost(1024, 1024, 1024, DType::bf16);
    QCOMPARE(e.flops, m.flops);
    QCOMPARE(e.bytes(), m.bytes());
}

void TestEinsum::parseKeepsNames() {
    const EinsumExpr e = parse_einsum("batch seq hidden, hidden out -> batch seq out");
    QCOMPARE(e.inputs.size(), std::size_t(2));
    QCOMPARE(e.inputs[0].dims, (std::vector<std::string>{"batch", "seq", "hidden"}));
    QCOMPARE(e.output.dims, (std::vector<std::string>{"batch", "seq", "out"}));
    QCOMPARE(e.names, (std::vector<std::string>{"batch", "seq", "hidden", "out"}));
    QVERIFY(!e.uses_ellipsis);
    QVERIFY(parse_einsum("... a -> ... a").uses_ellipsis);
}

void TestEinsum::summedDimensions() {
    const EinsumCost c =
        einsum_cost(parse_einsum("batch seq1 hidden, batch seq2 hidden -> batch seq1 seq2"),
                    {{"batch", 1}, {"seq1", 1}, {"seq2", 1}, {"hidden", 1}}, {}, DType::bf16);
    QCOMPARE(c.summed, (std::vector<std::string>{"hidden"}));
}

void TestEinsum::malformed_data() {
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing arrow") << "a b, b c"
                                   << "missing \"->\"";
    QTest::newRow("two arrows") << "a -> b -> c"
                                << "more than once";
    QTest::newRow("no inputs") << " -> a"
                               << "no input before";
    QTest::newRow("empty input") << "a b, , b c -> a c"
                                 << "input 2 is empty";
    QTest::newRow("trailing comma") << "a b, -> a"
                                    << "input 2 is empty";
    QTest::newRow("comma in output") << "a b -> a, b"
                                     << "no ',' after";
    QTest::newRow("name starts with digit") << "a 1b -> a"
                                            << "'1b' in input 1 is not a dimension";
    QTest::newRow("punctuation") << "a b! -> a"
                                 << "'b!' in input 1";
    QTest::newRow("composition") << "(h d) -> h"
                                 << "axis composition";
    QTest::newRow("repeated in input") << "i i -> i"
                                       << "'i' appears twice in input 1";
    QTest::newRow("repeated in output") << "a b -> a a"
                                        << "'a' appears twice in the output";
    QTest::newRow("output name not on the left") << "a b, b c -> a d"
                                                 << "output dimension 'd' does not appear";
    // NumPy's compact form that does not read letter by letter either (a letter twice in one
    // operand): the message writes it Tally's way.
    QTest::newRow("numpy compact form with a trace") << "bhqq,bhkd->bhqk"
                                                     << "as in \"b h q q, b h k d -> b h q k\"";
    QTest::newRow("ellipsis twice") << "... a ... -> a"
                                    << "\"...\" appears twice in input 1";
    QTest::newRow("ellipsis only on the right") << "a -> ... a"
                                                << "the output has \"...\" but no input does";
}

void TestEinsum::malformed() {
    QFETCH(QString, expr);
    QFETCH(QString, message);
    try {
        parse_einsum(expr.toStdString(), "ops[3].expr");
        QFAIL("expected a SpecError");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("ops[3].expr"));
        QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
        // The message quotes the expression the user wrote.
        QVERIFY2(QString::fromUtf8(e.what()).contains(expr), e.what());
    }
}

void TestEinsum::badSizes_data() {
    QTest::addColumn<QString>("expr");
    QTest::addColumn<Sizes>("sizes");
    QTest::addColumn<Ellipsis>("ellipsis");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message");
    QTest::newRow("size missing") << "a b, b c -> a c" << Sizes{{"a", 2}, {"b", 3}} << Ellipsis{}
                                  << "sizes.c"
                                  << "dimension 'c'";
    QTest::newRow("size for unknown dimension")
        << "a b -> a" << Sizes{{"a", 2}, {"b", 3}, {"z", 4}} << Ellipsis{} << "sizes.z"
        << "'z' is not a dimension";
    QTest::newRow("size zero") << "a b -> a" << Sizes{{"a", 2}, {"b", 0}} << Ellipsis{} << "sizes.b"
                               << "whole number from 1 to 9e15";
    QTest::newRow("ellipsis without sizes")
        << "... a -> ... a" << Sizes{{"a", 2}} << Ellipsis{} << "sizes[\"...\"]"
        << "uses \"...\"";
    QTest::newRow("ellipsis sizes unused")
        << "a -> a" << Sizes{{"a", 2}} << Ellipsis{4} << "sizes[\"...\"]"
        << "has no \"...\"";
    // Each size is within the op reader's 9e15, but 21 of them multiply to 9e15^21 = 1.1e334,
    // beyond a double: the cost would be infinite.
    Sizes many;
    QString names;
    for (char c = 'a'; c < 'a' + 21; ++c) {
        many.emplace_back(std::string(1, c), 9'000'000'000'000'000);
        names += QLatin1Char(c) + QLatin1String(" ");
    }
    QTest::newRow("21 sizes of 9e15")
        << names + QLatin1String("-> a") << many << Ellipsis{} << "sizes"
        << "more than 1e48";
    // "..." counts too: 9e15^3 = 7.3e47 passes, a fourth leading size of 9e15 does not.
    QTest::newRow("ellipsis pushes the product past 1e48")
        << "... a, a b -> ... b"
        << Sizes{{"a", 9'000'000'000'000'000}, {"b", 9'000'000'000'000'000}}
        << Ellipsis{9'000'000'000'000'000, 9'000'000'000'000'000} << "sizes"
        << "more than 1e48";
}

void TestEinsum::largestProductIsFinite() {
    // [m x k] @ [k x n] with m = k = n = 9e15, the largest sizes the op reader takes: the
    // product 7.29e47 is allowed, and the cost is the matmul's 2·m·k·n = 1.458e48 FLOPs.
    const double s = 9e15;
    const EinsumCost c = einsum_cost(
        parse_einsum("m k, k n -> m n"),
        {{"m", 9'000'000'000'000'000}, {"k", 9'000'000'000'000'000}, {"n", 9'000'000'000'000'000}},
        {}, DType::bf16);
    QCOMPARE(c.flops, 2.0 * s * s * s);
    QVERIFY(std::isfinite(c.bytes()));
}

void TestEinsum::badSizes() {
    QFETCH(QString, expr);
    QFETCH(Sizes, sizes);
    QFETCH(Ellipsis, ellipsis);
    QFETCH(QString, field);
    QFETCH(QString, message);
    try {
        einsum_cost(parse_einsum(expr.toStdString()), sizes, ellipsis, DType::bf16);
        QFAIL("expected a SpecError");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), field);
        QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
    }
}

void TestEinsum::opFromJsonNamesField_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("field");
    QTest::newRow("bad expression")
        << R"({"kind":"einsum","expr":"a b -> c","sizes":{"a":1,"b":2}})"
        << "ops[0].expr";
    QTest::newRow("missing size") << R"({"kind":"einsum","expr":"a b -> a","sizes":{"a":1}})"
                                  << "ops[0].sizes.b";
    QTest::newRow("empty ellipsis")
        << R"({"kind":"einsum","expr":"... a -> a","sizes":{"a":1,"...":[]}})"
        << "ops[0].sizes[\"...\"]";
    // Accepted before: 1e308 FLOPs per element made the op's FLOPs infinite.
    QTest::newRow("gelu 1e308 flops per element")
        << R"({"kind":"gelu","n":1000,"flops_per_element":1e308})"
        << "ops[0].flops_per_element";
    QTest::newRow("ellipsis not integers")
        << R"({"kind":"einsum","expr":"... a -> a","sizes":{"a":1,"...":[2.5]}})"
        << "ops[0].sizes[\"...\"][0]";
}

void TestEinsum::opFromJsonNamesField() {
    // The spec parser checks an einsum when it reads it.
    QFETCH(QString, op);
    QFETCH(QString, field);
    try {
        op_from_json(nlohmann::json::parse(op.toStdString()), "ops[0]");
        QFAIL("expected a SpecError");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), field);
    }
}

QTEST_GUILESS_MAIN(TestEinsum)
#include "tst_einsum.moc"
