// What a user types for a roofline operation, turned into the planner's OpSpec.
#include <QtTest>

#include "planner/roofline/operations.h"
#include "ui/plan/op_input.h"

using namespace tally;
using namespace tally::ui;

class TestOpInput : public QObject {
    Q_OBJECT

private slots:
    void einsumWithNamedSizes();
    void einsumWithEllipsis();
    void matmulSizes();
    void rejects_data();
    void rejects();
};

void TestOpInput::einsumWithNamedSizes() {
    QString error;
    const auto op =
        makeOperation(OpKind::einsum, QStringLiteral("scores"),
                      QStringLiteral("batch seq1 hidden, batch seq2 hidden -> batch "
                                     "seq1 seq2"),
                      QStringLiteral("batch=8, seq1=1024 seq2=1K hidden=128"), DType::bf16, &error);
    QVERIFY2(op.has_value(), qPrintable(error));
    QCOMPARE(op->name, std::string("scores"));
    QCOMPARE(op->sizes.size(), std::size_t{4});
    QCOMPARE(op->sizes[2].first, std::string("seq2"));
    QCOMPARE(op->sizes[2].second, std::int64_t{1000});
    // The planner costs it: 2 x 8 x 1024 x 1000 x 128 FLOPs (lecture 2: 2 x the product of all
    // dimensions).
    QCOMPARE(op_cost(*op).flops, 2.0 * 8 * 1024 * 1000 * 128);
}

void TestOpInput::einsumWithEllipsis() {
    QString error;
    const auto op =
        makeOperation(OpKind::einsum, {}, QStringLiteral("... hidden, hidden out -> ... out"),
                      QStringLiteral("hidden=1024 out=1024 ...=8x1024"), DType::bf16, &error);
    QVERIFY2(op.has_value(), qPrintable(error));
    QCOMPARE(op->ellipsis, (std::vector<std::int64_t>{8, 1024}));
    QCOMPARE(op->name, std::string("einsum"));  // unnamed: the kind's name, as in a spec file
}

void TestOpInput::matmulSizes() {
    QString error;
    const auto op = makeOperation(OpKind::matmul, {}, {}, QStringLiteral("m=1024 k=1024 n=1024"),
                                  DType::bf16, &error);
    QVERIFY2(op.has_value(), qPrintable(error));
    // Lecture 2: a 1024^3 matmul in bf16 has intensity 2n^3 / 6n^2 = n/3 = 341.3.
    QVERIFY(std::abs(op_cost(*op).intensity() - 1024.0 / 3.0) < 1e-9);
}

void TestOpInput::rejects_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QString>("sizes");
    QTest::addColumn<QString>("mentions");
    QTest::addColumn<bool>("inExpression");  // the box at fault: the expression, else the sizes
    QTest::newRow("einsum without expression")
        << int(OpKind::einsum) << QString() << QStringLiteral("a=1") << QStringLiteral("einsum")
        << true;
    QTest::newRow("pair without =") << int(OpKind::relu) << QString() << QStringLiteral("1000")
                                    << QStringLiteral("name=value") << false;
    QTest::newRow("zero size") << int(OpKind::relu) << QString() << QStringLiteral("n=0")
                               << QStringLiteral("n") << false;
    QTest::newRow("fractional size") << int(OpKind::relu) << QString() << QStringLiteral("n=2.5")
                                     << QStringLiteral("n") << false;
    QTest::newRow("k on a matvec")
        << int(OpKind::matvec) << QString() << QStringLiteral("m=4 k=4 n=4")
        << QStringLiteral("m, n") << false;
    QTest::newRow("missing k") << int(OpKind::matmul) << QString() << QStringLiteral("m=4 n=4")
                               << QStringLiteral("k=") << false;
    // 2^53 + 1 and beyond are past the largest size taken (9e15), which the message says.
    QTest::newRow("size too large")
        << int(OpKind::einsum) << QStringLiteral("b i, b i -> b")
        << QStringLiteral("b=9007199254740993 i=4") << QStringLiteral("from 1 to 9e15") << false;
    QTest::newRow("ellipsis on relu") << int(OpKind::relu) << QString() << QStringLiteral("...=4")
                                      << QStringLiteral("einsum") << false;
}

void TestOpInput::rejects() {
    QFETCH(int, kind);
    QFETCH(QString, expr);
    QFETCH(QString, sizes);
    QFETCH(QString, mentions);
    QFETCH(bool, inExpression);
    QString error;
    OperationInput where = inExpression ? OperationInput::sizes : OperationInput::expression;
    const auto op =
        makeOperation(static_cast<OpKind>(kind), {}, expr, sizes, DType::bf16, &error, &where);
    QVERIFY(!op.has_value());
    QVERIFY2(error.contains(mentions), qPrintable(error));
    QCOMPARE(where, inExpression ? OperationInput::expression : OperationInput::sizes);
}

QTEST_GUILESS_MAIN(TestOpInput)
#include "tst_ui_op_input.moc"
