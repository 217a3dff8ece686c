// The command line in the user's language: human-readable output and error messages follow LANG
// (zh_CN: Simplified Chinese; C: English) or --lang; `--json` output and exit codes never change.
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>
#include <algorithm>

namespace {

struct Run {
    int exit_code = -1;
    QString out;
    QString err;
};

// `tally ARGS...` with LANG set to `lang` (LC_ALL and LC_MESSAGES removed, so LANG decides).
Run runWithLang(const QString& lang, const QStringList& args, const QByteArray& input = {}) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("LC_ALL"));
    env.remove(QStringLiteral("LC_MESSAGES"));
    env.remove(QStringLiteral("LANGUAGE"));
    env.insert(QStringLiteral("LANG"), lang);
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(TALLY_BIN), args);
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// Llama 3 70B's shape as `params` on 8 H100 without sharding: 70e9 x (2 + 2 + 4 + 4 + 4)
// bytes (bf16 params and grads, fp32 master, AdamW's two fp32 states) / 8 GPUs = 140 GB per
// GPU against 80 GB, so the plan does not fit.
const QByteArray kTooBig = R"({
  "model": {"kind": "params", "params": 70e9},
  "data": {"tokens": 1e12},
  "cluster": {"gpu": "h100-sxm", "gpus": 8, "mfu": 0.5},
  "training": {"zero": 0}
})";

// A transformer with -5 layers: check() refuses it (planner/training/check.cpp).
const QByteArray kBadLayers = R"({
  "model": {"kind": "transformer", "layers": -5, "hidden": 4096, "heads": 32, "vocab": 32000,
            "ffn_hidden": 11008},
  "data": {"tokens": 1e12},
  "cluster": {"gpu": "h100-sxm", "gpus": 8, "mfu": 0.5}
})";

// Llama 2 7B served on one H100 with 512 sequences of 4096 + 4096 tokens. Its KV cache is
// 2 x 32 layers x 32 KV heads x 128 x 2 bytes = 524288 bytes per token, x 512 x 8192 tokens =
// 2.2e12 bytes against 80 GB: the deployment does not fit.
const QByteArray kServingTooBig = R"({
  "model": {"preset": "llama-2-7b"},
  "data": {"tokens": 1e12},
  "cluster": {"gpu": "h100-sxm", "gpus": 1},
  "inference": {"batch": 512, "prompt_tokens": 4096, "output_tokens": 4096}
})";

// Llama 2 7B training on 8 H100, for the roofline of its layers.
const QByteArray kLlama7b = R"({
  "model": {"preset": "llama-2-7b"},
  "data": {"tokens": 1e12},
  "cluster": {"gpu": "h100-sxm", "gpus": 8, "mfu": 0.5}
})";

// A file of the repository's examples (resources/examples).
QString example(const char* name) {
    return QStringLiteral(TALLY_SOURCE_DIR "/resources/examples/") + QLatin1String(name);
}

// `tally --lang zh_CN ARGS...` (LANG=C, so only --lang asks for Chinese).
Run runZh(const QStringList& args, const QByteArray& input = {}) {
    return runWithLang(QStringLiteral("C"),
                       QStringList{QStringLiteral("--lang"), QStringLiteral("zh_CN")} + args,
                       input);
}

// The words of Latin letters in `text` that are not in `allowed`: symbols, units, identifiers
// and proper names are allowed, English prose is not.
QStringList englishWords(const QString& text, const QSet<QString>& allowed) {
    QStringList out;
    static const QRegularExpression word(
        QStringLiteral("(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z][A-Za-z0-9_]*)*"));
    QString rest = text;
    // Proper names of more than one word.
    for (const char* name : {"flash attention", "Pollaczek-Khinchine"}) {
        rest.remove(QLatin1String(name));
    }
    for (auto it = word.globalMatch(rest); it.hasNext();) {
        const QString w = it.next().captured();
        if (!allowed.contains(w)) {
            out << w;
        }
    }
    return out;
}

// The formulas of "How each figure is computed" (explanation lines "  LABEL  FORMULA = ...", the
// label and the formula apart by two spaces or more, the sources on lines of their own in [...]).
QStringList formulas(const QString& out, const QString& heading) {
    QStringList result;
    const qsizetype at = out.indexOf(heading);
    if (at < 0) {
        return result;
    }
    static const QRegularExpression row(QStringLiteral("^  \\S.*?\\s{2,}(\\S.*?) = "));
    for (const QString& line : out.mid(at).split(u'\n').mid(1)) {
        if (line.trimmed().isEmpty()) {
            break;
        }
        const QRegularExpressionMatch m = row.match(line);
        if (m.hasMatch()) {
            result << m.captured(1);
        }
    }
    return result;
}

// Symbols, units and identifiers the formulas keep in every language (explain.cpp,
// inference.cpp): variables (N, L, B, T, h, W, ...), spec fields and framework settings, units,
// and the names of collectives and hardware.
const QSet<QString> kFormulaSymbols = {
    QStringLiteral("N"),
    QStringLiteral("D"),
    QStringLiteral("L"),
    QStringLiteral("H"),
    QStringLiteral("T"),
    QStringLiteral("B"),
    QStringLiteral("C"),
    QStringLiteral("O"),
    QStringLiteral("P"),
    QStringLiteral("W"),
    QStringLiteral("S"),
    QStringLiteral("h"),
    QStringLiteral("k"),
    QStringLiteral("p"),
    QStringLiteral("f"),
    QStringLiteral("s"),
    QStringLiteral("v"),
    QStringLiteral("m"),
    QStringLiteral("x"),
    QStringLiteral("a"),
    QStringLiteral("b"),
    QStringLiteral("n"),
    QStringLiteral("q"),
    QStringLiteral("d_qk"),
    QStringLiteral("d_v"),
    QStringLiteral("N_gpu"),
    QStringLiteral("N_16"),
    QStringLiteral("N_matmul"),
    QStringLiteral("L_w"),
    QStringLiteral("bytes"),
    // The loss's terms as the glossary keeps them, and the setting that chooses between them.
    QStringLiteral("softmax"),
    QStringLiteral("logit"),
    QStringLiteral("logits"),
    QStringLiteral("training"),
    QStringLiteral("cross_entropy"),
    QStringLiteral("param"),
    QStringLiteral("grad"),
    QStringLiteral("master"),
    QStringLiteral("act"),
    QStringLiteral("weight_dtype"),
    QStringLiteral("kv_heads"),
    QStringLiteral("head_dim"),
    QStringLiteral("kv_lora_rank"),
    QStringLiteral("qk_rope_head_dim"),
    QStringLiteral("max_batched_tokens"),
    QStringLiteral("qkv"),
    QStringLiteral("max"),
    QStringLiteral("min"),
    QStringLiteral("ceil"),
    QStringLiteral("floor"),
    QStringLiteral("tp"),
    QStringLiteral("pp"),
    QStringLiteral("dp"),
    QStringLiteral("cp"),
    QStringLiteral("us"),
    QStringLiteral("MiB"),
    QStringLiteral("ZeRO"),
    QStringLiteral("ZeRO-3"),
    QStringLiteral("TP"),
    QStringLiteral("PP"),
    QStringLiteral("DP"),
    QStringLiteral("EP"),
    QStringLiteral("CP"),
    QStringLiteral("SP"),
    QStringLiteral("MoE"),
    QStringLiteral("MLP"),
    QStringLiteral("KV"),
    QStringLiteral("GPU"),
    QStringLiteral("SM"),
    QStringLiteral("NCCL"),
    QStringLiteral("GEMM"),
    QStringLiteral("FLOPs"),
    QStringLiteral("MFU"),
    QStringLiteral("HFU"),
    QStringLiteral("TDP"),
    QStringLiteral("TTFT"),
    QStringLiteral("ITL"),
    QStringLiteral("RS"),
    QStringLiteral("AG"),
    QStringLiteral("all-reduce"),
    QStringLiteral("all-to-all"),
    QStringLiteral("all-gather"),
    QStringLiteral("rho"),
    QStringLiteral("kernel"),
    QStringLiteral("tile"),
    QStringLiteral("token"),
    QStringLiteral("dropout"),
    QStringLiteral("bf16"),
    QStringLiteral("fp32"),
    QStringLiteral("H100"),
    QStringLiteral("SXM5"),
};

}  // namespace

class TestCliTranslation : public QObject {
    Q_OBJECT

private slots:
    void langAfterTheCommand();
    void warningFollowsLang_data();
    void warningFollowsLang();
    void badInputFollowsLang_data();
    void badInputFollowsLang();
    void jsonIsTheSameInEveryLanguage();
    void langOption();
    void inferFollowsLang_data();
    void inferFollowsLang();
    void refusalFollowsLang_data();
    void refusalFollowsLang();
    void workspaceErrorFollowsLang_data();
    void workspaceErrorFollowsLang();
    void rooflineAndHardwareFollowLang_data();
    void rooflineAndHardwareFollowLang();
    void planStepAndFormulasInChinese();
    void inferFormulasInChinese_data();
    void inferFormulasInChinese();
    void calibrateInChinese();
    void sourcesInWordsInChinese();
    void importErrorInChinese();
    void parseErrorsInChinese_data();
    void parseErrorsInChinese();
};

void TestCliTranslation::warningFollowsLang_data() {
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("heading");  // the memory table's heading
    QTest::addColumn<QString>("warning");  // the does-not-fit warning, as far as it is fixed
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN.UTF-8") << QStringLiteral("每 GPU 内存")
                           << QStringLiteral("放不下：每 GPU 需要");
    QTest::newRow("C") << QStringLiteral("C") << QStringLiteral("Memory per GPU")
                       << QStringLiteral("does not fit: ");
    QTest::newRow("en_US") << QStringLiteral("en_US.UTF-8") << QStringLiteral("Memory per GPU")
                           << QStringLiteral("does not fit: ");
}

void TestCliTranslation::warningFollowsLang() {
    QFETCH(QString, lang);
    QFETCH(QString, heading);
    QFETCH(QString, warning);
    const Run r = runWithLang(lang, {QStringLiteral("plan"), QStringLiteral("-")}, kTooBig);
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.out.contains(heading), qPrintable(r.out));
    QVERIFY2(r.out.contains(warning), qPrintable(r.out));
}

void TestCliTranslation::badInputFollowsLang_data() {
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("message");
    // The spec reader (planner/io/json_reader.cpp): "must be an integer >= %1 and at most 2^53 =
    // %2" with %1 = 1 (model.layers) and %2 = 2^53 = 9007199254740992, in the frame "%1: got %2;
    // %3"; in the catalogue "必须是 >= %1 且不超过 2^53 = %2 的整数" and "%1：给出的是 %2；%3".
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN.UTF-8")
                           << QStringLiteral(
                                  "tally: 错误：model.layers：给出的是 -5；必须是 >= 1 "
                                  "且不超过 2^53 = 9007199254740992 的整数");
    QTest::newRow("C") << QStringLiteral("C")
                       << QStringLiteral(
                              "tally: error: model.layers: got -5; must be an integer "
                              ">= 1 and at most 2^53 = 9007199254740992");
}

void TestCliTranslation::badInputFollowsLang() {
    QFETCH(QString, lang);
    QFETCH(QString, message);
    const Run r = runWithLang(lang, {QStringLiteral("plan"), QStringLiteral("-")}, kBadLayers);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.trimmed() == message, qPrintable(r.err));
    // --json changes nothing: the same exit code.
    const Run j = runWithLang(
        lang, {QStringLiteral("plan"), QStringLiteral("-"), QStringLiteral("--json")}, kBadLayers);
    QCOMPARE(j.exit_code, 2);
}

void TestCliTranslation::jsonIsTheSameInEveryLanguage() {
    const QStringList args = {QStringLiteral("plan"), QStringLiteral("-"),
                              QStringLiteral("--json")};
    const Run zh = runWithLang(QStringLiteral("zh_CN.UTF-8"), args, kTooBig);
    const Run c = runWithLang(QStringLiteral("C"), args, kTooBig);
    QCOMPARE(zh.exit_code, 0);
    QCOMPARE(c.exit_code, 0);
    QCOMPARE(zh.out, c.out);
    // Its warnings stay in English: JSON is for programs.
    QVERIFY(zh.out.contains(QStringLiteral("\"does not fit: ")));
}

void TestCliTranslation::langOption() {
    // --lang overrides LANG; an unknown language is refused as bad input.
    const Run zh = runWithLang(QStringLiteral("C"),
                               {QStringLiteral("--lang"), QStringLiteral("zh_CN"),
                                QStringLiteral("plan"), QStringLiteral("-")},
                               kTooBig);
    QCOMPARE(zh.exit_code, 0);
    QVERIFY2(zh.out.contains(QStringLiteral("放不下")), qPrintable(zh.out));
    const Run bad = runWithLang(QStringLiteral("C"),
                                {QStringLiteral("--lang"), QStringLiteral("xx_YY"),
                                 QStringLiteral("plan"), QStringLiteral("-")},
                                kTooBig);
    QCOMPARE(bad.exit_code, 2);
}

void TestCliTranslation::inferFollowsLang_data() {
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QStringList>("expected");
    // The catalogue's entries for a heading ("Static batch: latency and throughput, were it to fit
    // (it does not: ...)", as the spec does not fit), a row label
    // ("time to first token"), the serving warning's fixed start ("does not fit: %1 GB needed
    // per GPU, ...") and the largest batch's line with the numbers ("context %1 tokens, %2 GB
    // capacity: B = %3", %1 = 4096 + 4096 = 8192 tokens of context).
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN.UTF-8")
                           << QStringList{QStringLiteral("静态批处理：假如放得下时的延迟与吞吐量"),
                                          QStringLiteral("首 token 时间"),
                                          QStringLiteral("  - 放不下：每 GPU 需要"),
                                          QStringLiteral("上下文 8192 个 token，容量 ")};
    QTest::newRow("C") << QStringLiteral("C")
                       << QStringList{QStringLiteral("Static batch: latency and throughput, "
                                                     "were it to fit"),
                                      QStringLiteral("time to first token"),
                                      QStringLiteral("  - does not fit: "),
                                      QStringLiteral("context 8192 tokens, ")};
}

void TestCliTranslation::inferFollowsLang() {
    QFETCH(QString, lang);
    QFETCH(QStringList, expected);
    const Run r = runWithLang(lang, {QStringLiteral("infer"), QStringLiteral("-")}, kServingTooBig);
    QCOMPARE(r.exit_code, 0);
    for (const QString& text : expected) {
        QVERIFY2(r.out.contains(text), qPrintable(text + QStringLiteral(" not in:\n") + r.out));
    }
    if (lang != QLatin1String("C")) {
        // None of the English the table's labels and the warning are written in.
        for (const QString& english :
             {QStringLiteral("Static batch"), QStringLiteral("does not fit"),
              QStringLiteral("time to first token"), QStringLiteral("How each figure"),
              QStringLiteral("context 8192 tokens")}) {
            QVERIFY2(!r.out.contains(english), qPrintable(english));
        }
    }
    // --json is the same in every language, exit code included.
    const QStringList json = {QStringLiteral("infer"), QStringLiteral("-"),
                              QStringLiteral("--json")};
    const Run zh = runWithLang(lang, json, kServingTooBig);
    const Run c = runWithLang(QStringLiteral("C"), json, kServingTooBig);
    QCOMPARE(zh.exit_code, 0);
    QCOMPARE(zh.out, c.out);
    // A bad option is refused with the same exit code in every language, in its words:
    // "--concurrency: got -3; an integer from 1 to 1000000 (...)", "一个 1 到 1000000 之间的整数"
    // in the catalogue.
    const Run bad = runWithLang(
        lang, {QStringLiteral("infer"), QStringLiteral("-"), QStringLiteral("--concurrency=-3")},
        kServingTooBig);
    QCOMPARE(bad.exit_code, 2);
    QVERIFY2(bad.err.contains(lang == QLatin1String("C")
                                  ? QStringLiteral("an integer from 1 to 1000000")
                                  : QStringLiteral("一个 1 到 1000000 之间的整数")),
             qPrintable(bad.err));
}

// A planner refusal through the CLI, in Chinese and in English: `command -` reads `spec` from
// stdin and exits 2 with the one line `message`.
void TestCliTranslation::refusalFollowsLang_data() {
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("command");
    QTest::addColumn<QByteArray>("spec");
    QTest::addColumn<QString>("message");
    const QString zh = QStringLiteral("zh_CN.UTF-8");
    const QString c = QStringLiteral("C");

    // Llama 2 7B at tp 2 on one GPU: check_inference() (planner/serving/inference.cpp) refuses
    // inference.tp with "tp x pp (%1 x %2) must divide cluster.gpus (%3): ...", in the
    // catalogue "tp x pp（%1 x %2）必须整除 cluster.gpus（%3）：模型的每个副本占用 tp x pp 个 GPU".
    const QByteArray servingTp = R"({
  "model": {"preset": "llama-2-7b"},
  "cluster": {"gpu": "h100-sxm", "gpus": 1},
  "inference": {"batch": 8, "tp": 2}
})";
    QTest::newRow("serving tp, zh_CN")
        << zh << QStringLiteral("infer") << servingTp
        << QStringLiteral(
               "tally: 错误：inference.tp：给出的是 2；tp x pp（2 x 1）必须整除 "
               "cluster.gpus（1）：模型的每个副本占用 tp x pp 个 GPU");
    QTest::newRow("serving tp, C")
        << c << QStringLiteral("infer") << servingTp
        << QStringLiteral(
               "tally: error: inference.tp: got 2; tp x pp (2 x 1) must divide "
               "cluster.gpus (1): each replica of the model takes tp x pp GPUs");

    // A transformer without layers: the spec reader (planner/io/spec_json.cpp) names
    // model.layers with the placeholder value "nothing" (kValueNothing, planner/core/errors.h),
    // which the frame "%1: got %2; %3" translates with it: "nothing" is "空" in the catalogue.
    const QByteArray noLayers = R"({
  "model": {"kind": "transformer", "hidden": 4096},
  "data": {"tokens": 1e12},
  "cluster": {"gpu": "h100-sxm", "gpus": 8}
})";
    QTest::newRow("missing value, zh_CN")
        << zh << QStringLiteral("plan") << noLayers
        << QStringLiteral(
               "tally: 错误：model.layers：给出的是 空；transformer 需要 layers、hidden、"
               "heads、ffn_hidden 和 vocab（或 preset / hf_config）");
    QTest::newRow("missing value, C")
        << c << QStringLiteral("plan") << noLayers
        << QStringLiteral(
               "tally: error: model.layers: got nothing; a transformer needs layers, "
               "hidden, heads, ffn_hidden and vocab (or a preset / hf_config)");

    // "a b, b c -> a d" names d in the output only: parse_einsum() (planner/roofline/einsum.cpp)
    // refuses ops[0].expr with "output dimension '%1' does not appear in any input (inputs have:
    // %2)", %1 = d and %2 = the inputs' dimensions "a, b, c", in the frame "%1: got %2; %3"; in
    // the catalogue "输出维度 '%1' 没有出现在任何输入中（输入中的维度：%2）".
    const QByteArray einsum = R"({
  "model": {"preset": "llama-2-7b"},
  "data": {"tokens": 1e12},
  "cluster": {"gpu": "h100-sxm", "gpus": 8, "mfu": 0.5},
  "ops": [{"kind": "einsum", "expr": "a b, b c -> a d", "sizes": {"a": 2, "b": 3, "c": 4}}]
})";
    QTest::newRow("einsum, zh_CN")
        << zh << QStringLiteral("roofline") << einsum
        << QStringLiteral(
               "tally: 错误：ops[0].expr：给出的是 \"a b, b c -> a d\"；输出维度 'd' "
               "没有出现在任何输入中（输入中的维度：a, b, c）");
    QTest::newRow("einsum, C")
        << c << QStringLiteral("roofline") << einsum
        << QStringLiteral(
               "tally: error: ops[0].expr: got \"a b, b c -> a d\"; output dimension "
               "'d' does not appear in any input (inputs have: a, b, c)");

    // "bf17" is no dtype: the spec reader (planner/io/spec_json.cpp) refuses
    // training.param_dtype with "one of %1", %1 = dtype_names() (planner/core/dtype.cpp), in the
    // frame "%1: got %2; %3"; in the catalogue "以下之一：%1".
    const QByteArray dtype = R"({
  "model": {"preset": "llama-2-7b"},
  "data": {"tokens": 1e12},
  "cluster": {"gpu": "h100-sxm", "gpus": 8, "mfu": 0.5},
  "training": {"param_dtype": "bf17"}
})";
    const QString names = QStringLiteral(
        "fp64, fp32, tf32, bf16, fp16, fp8 (= fp8_e4m3), fp8_e4m3, fp8_e5m2, int8, fp4 (= "
        "fp4_e2m1), nvfp4, mxfp4, int4");
    QTest::newRow("dtype, zh_CN")
        << zh << QStringLiteral("plan") << dtype
        << QStringLiteral("tally: 错误：training.param_dtype：给出的是 \"bf17\"；以下之一：") +
               names;
    QTest::newRow("dtype, C") << c << QStringLiteral("plan") << dtype
                              << QStringLiteral(
                                     "tally: error: training.param_dtype: got "
                                     "\"bf17\"; one of ") +
                                     names;
}

void TestCliTranslation::refusalFollowsLang() {
    QFETCH(QString, lang);
    QFETCH(QString, command);
    QFETCH(QByteArray, spec);
    QFETCH(QString, message);
    const Run r = runWithLang(lang, {command, QStringLiteral("-")}, spec);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.trimmed() == message, qPrintable(r.err));
}

void TestCliTranslation::workspaceErrorFollowsLang_data() {
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("message");  // FILE stands for the file's path
    // A text file given as the workspace: the inspection (planner/store/workspace_schema.cpp)
    // refuses it with "workspace %1 is not an SQLite database (it does not start with the SQLite
    // header). It was left untouched; pick another file or start a new workspace." (%1: the
    // file), in the catalogue "工作区 %1 不是 SQLite 数据库（它不以 SQLite 文件头开头）。"
    // followed by "它未被改动；请选择另一个文件，或新建一个工作区。". The CLI puts "tally: error: "
    // ("tally: 错误：") before it.
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN.UTF-8")
                           << QStringLiteral(
                                  "tally: 错误：工作区 FILE 不是 SQLite 数据库（它不以 SQLite "
                                  "文件头开头）。它未被改动；请选择另一个文件，或新建一个工作区。");
    QTest::newRow("C") << QStringLiteral("C")
                       << QStringLiteral(
                              "tally: error: workspace FILE is not an SQLite database (it does "
                              "not start with the SQLite header). It was left untouched; pick "
                              "another file or start a new workspace.");
}

void TestCliTranslation::workspaceErrorFollowsLang() {
    QFETCH(QString, lang);
    QFETCH(QString, message);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("notes.txt"));
    QFile notes(file);
    QVERIFY(notes.open(QIODevice::WriteOnly));
    notes.write("shopping list: milk, eggs\n");
    notes.close();
    const Run r = runWithLang(
        lang, {QStringLiteral("plans"), QStringLiteral("--db"), file, QStringLiteral("list")});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.err.trimmed() == message.replace(QStringLiteral("FILE"), file), qPrintable(r.err));
    // The refused file is left as it was.
    QVERIFY(notes.open(QIODevice::ReadOnly));
    QCOMPARE(notes.readAll(), QByteArray("shopping list: milk, eggs\n"));
}

void TestCliTranslation::rooflineAndHardwareFollowLang_data() {
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("heading");  // the roofline's per-step heading
    QTest::addColumn<QString>("error");    // an unknown hardware id, as far as it is fixed
    // "Per step at roofline speed (operations one after another):" and "ID: got %2; one of the
    // built-in ids: %1" in the catalogue: "按 roofline 速度计的每步（运算依次执行）：",
    // "%1：给出的是 %2；%3" with "内置 id 之一：%1".
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN.UTF-8")
                           << QStringLiteral("按 roofline 速度计的每步（运算依次执行）：")
                           << QStringLiteral(
                                  "tally: 错误：ID：给出的是 \"nosuch\"；内置 id 之一：");
    QTest::newRow("C")
        << QStringLiteral("C")
        << QStringLiteral("Per step at roofline speed (operations one after another):")
        << QStringLiteral("tally: error: ID: got \"nosuch\"; one of the built-in ids: ");
}

void TestCliTranslation::rooflineAndHardwareFollowLang() {
    QFETCH(QString, lang);
    QFETCH(QString, heading);
    QFETCH(QString, error);
    const Run r = runWithLang(lang, {QStringLiteral("roofline"), QStringLiteral("-")}, kLlama7b);
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.out.contains(heading), qPrintable(r.out));
    const Run bad = runWithLang(
        lang, {QStringLiteral("hardware"), QStringLiteral("show"), QStringLiteral("nosuch")});
    QCOMPARE(bad.exit_code, 2);
    QVERIFY2(bad.err.startsWith(error), qPrintable(bad.err));
}

// `plan` in Chinese: the step table's terms and the formulas of "How each figure is computed"
// (planner/text/explain.cpp) come from the catalogue, in the words its entries use ("PP 通信",
// "PP 气泡", "DP 通信未重叠", "字节/秒"), each label within its column.
void TestCliTranslation::planStepAndFormulasInChinese() {
    const Run r = runZh({QStringLiteral("plan"), example("llama-3-70b-15t-1024-h100.json")});
    QCOMPARE(r.exit_code, 0);
    // The terms of the step, one a row: "TP comm" is "TP 通信" in the catalogue, and so on.
    const qsizetype step =
        r.out.indexOf(QStringLiteral("预测的单步时间（性能模型；docs/planner.md）"));
    QVERIFY2(step >= 0, qPrintable(r.out));
    const QStringList rows = r.out.mid(step).split(u'\n').mid(1, 16);
    for (const char* term : {"TP 通信", "PP 通信", "PP 气泡", "DP 通信未重叠", "EP 通信", "CP 通信",
                             "NCCL SM", "DP 通信"}) {
        const QString t = QString::fromUtf8(term);
        QVERIFY2(std::any_of(rows.begin(), rows.end(),
                             [&](const QString& row) {
                                 return row.startsWith(QStringLiteral("  ") + t + u' ');
                             }),
                 qPrintable(t + QStringLiteral(" not a row of:\n") + rows.join(u'\n')));
    }
    // The seconds end in one column on a terminal, where a Chinese character takes two: each
    // label fits its 13 columns (fmt pads by display width).
    const auto displayWidth = [](const QString& text) {
        qsizetype width = 0;
        for (const QChar c : text) {
            width += c.unicode() >= 0x1100 && c.unicode() != 0x2212 ? 2 : 1;
        }
        return width;
    };
    qsizetype secondsColumn = -1;
    for (const QString& row : rows) {
        const qsizetype end = row.indexOf(QStringLiteral(" s "));
        if (end < 0) {
            continue;
        }
        const qsizetype column = displayWidth(row.left(end));
        QVERIFY2(secondsColumn < 0 || column == secondsColumn, qPrintable(rows.join(u'\n')));
        secondsColumn = column;
    }
    static const QRegularExpression label(QStringLiteral("^  (\\S.*?)\\s+[-0-9]"));
    for (const QString& row : rows) {
        const QRegularExpressionMatch m = label.match(row);
        if (m.hasMatch()) {
            const QStringList english = englishWords(
                m.captured(1), {QStringLiteral("TP"), QStringLiteral("PP"), QStringLiteral("DP"),
                                QStringLiteral("EP"), QStringLiteral("CP"), QStringLiteral("NCCL"),
                                QStringLiteral("SM")});
            QVERIFY2(english.isEmpty(), qPrintable(row));
        }
    }
    // Formulas with the catalogue's words: "dense %1 peak of %2 (no 2:4 sparsity)" is
    // "%2 的稠密 %1 峰值（不含 2:4 稀疏）", "peak x MFU x GPUs" "峰值 x MFU x GPU 数", ...
    for (const char* formula :
         {"H100 SXM5 80GB 的稠密 bf16 峰值（不含 2:4 稀疏） = ", "峰值 x MFU x GPU 数 = ",
          "秒数 x GPU 数 / 3600 = ", "N_gpu x bytes(param) / (ZeRO-3 时除以 dp x cp) = ",
          "N_gpu x bytes(grad) / (ZeRO >= 2 时除以 dp x cp) = ",
          "N_gpu x bytes(master：fp32 副本，或没有) / (ZeRO >= 1 时除以 dp x cp) = ",
          "实际达到 3.136e+12 字节/秒", "每 GPU 3.798e+11 字节/秒"}) {
        QVERIFY2(r.out.contains(QString::fromUtf8(formula)),
                 qPrintable(QString::fromUtf8(formula) + QStringLiteral(" not in:\n") + r.out));
    }
    const QStringList all = formulas(r.out, QStringLiteral("每个数字是如何计算的"));
    QVERIFY(all.size() > 20);
    for (const QString& f : all) {
        const QStringList english = englishWords(f, kFormulaSymbols);
        QVERIFY2(english.isEmpty(), qPrintable(f + QStringLiteral(": ") + english.join(u' ')));
    }
    for (const char* english :
         {"TP comm", "PP bubble", "DP exposed", "NCCL SMs", "DP comm", "dense bf16 peak",
          "peak x MFU", "seconds x GPUs", "bytes/s", "字节/s"}) {
        QVERIFY2(!r.out.contains(QLatin1String(english)), english);
    }
    // Without pipeline buffers or ZeRO-3 the total is "params + grads + master + optimizer +
    // activations": "参数 + 梯度 + 主权重 + 优化器状态 + 激活值".
    const Run small = runZh({QStringLiteral("plan"), QStringLiteral("-")}, kTooBig);
    QCOMPARE(small.exit_code, 0);
    QVERIFY2(small.out.contains(QStringLiteral("参数 + 梯度 + 主权重 + 优化器状态 + 激活值 = ")),
             qPrintable(small.out));
    QVERIFY2(small.out.contains(QStringLiteral("N（给定） = ")), qPrintable(small.out));
    for (const QString& f : formulas(small.out, QStringLiteral("每个数字是如何计算的"))) {
        const QStringList english = englishWords(f, kFormulaSymbols);
        QVERIFY2(english.isEmpty(), qPrintable(f + QStringLiteral(": ") + english.join(u' ')));
    }
}

void TestCliTranslation::inferFormulasInChinese_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("static batch") << QStringList{};
    QTest::newRow("concurrency 16")
        << QStringList{QStringLiteral("--concurrency"), QStringLiteral("16")};
}

// `infer` in Chinese: every formula of the serving plan's explanations
// (planner/serving/inference.cpp) from the catalogue.
void TestCliTranslation::inferFormulasInChinese() {
    QFETCH(QStringList, args);
    const Run r = runZh(
        QStringList{QStringLiteral("infer"), example("llama-3-70b-serve-4xh100-fp8.json")} + args);
    QCOMPARE(r.exit_code, 0);
    // "weights + KV cache + activations" and "largest B with weights + B x context x KV per
    // token per GPU + activations(B) <= capacity" in the catalogue.
    for (const char* formula :
         {"权重 + KV 缓存 + 激活值 = ",
          "满足 权重 + B x 上下文 x 每 GPU 每 token KV + 激活(B) <= 容量 的最大 B = ",
          "批次 x (提示 + 输出) x 每 GPU 每 token 的 KV 字节数 = ", "1 / 解码单步 = "}) {
        QVERIFY2(r.out.contains(QString::fromUtf8(formula)),
                 qPrintable(QString::fromUtf8(formula) + QStringLiteral(" not in:\n") + r.out));
    }
    const QStringList all = formulas(r.out, QStringLiteral("每个数字是如何计算的"));
    QVERIFY(all.size() >= 12);
    for (const QString& f : all) {
        const QStringList english = englishWords(f, kFormulaSymbols);
        QVERIFY2(english.isEmpty(), qPrintable(f + QStringLiteral(": ") + english.join(u' ')));
    }
    for (const char* english : {"weights + KV cache", "largest B with", "replicas x"}) {
        QVERIFY2(!r.out.contains(QLatin1String(english)), english);
    }
}

// The sources written in words are in the reader's language; the citations stay as written
// (a paper and its section read the same in every language).
void TestCliTranslation::sourcesInWordsInChinese() {
    const Run plan = runZh({QStringLiteral("plan"), example("llama-3-70b-15t-1024-h100.json")});
    QCOMPARE(plan.exit_code, 0);
    // "definition" (GPU-hours), "sum of the above" (the memory total), "H100 ... TDP from its
    // hardware profile" (energy), and the GEMM and bandwidth fractions behind the predicted MFU.
    for (const char* source :
         {"[定义]", "[以上各项之和]", "[H100 SXM5 80GB 硬件配置中的 TDP]",
          "[0.806：目录中 H100 SXM5 80GB 已公布的最佳实测值（bf16 GEMM）；0.936：目录中 H100 SXM5 "
          "80GB 已公布的最佳实测值（内存带宽）]",
          "[Korthikanti et al. 2022, sec. 5 (MFU vs HFU)]"}) {
        QVERIFY2(plan.out.contains(QString::fromUtf8(source)),
                 qPrintable(QString::fromUtf8(source) + QStringLiteral(" not in:\n") + plan.out));
    }
    for (const char* english : {"[definition]", "sum of the above", "TDP from its hardware",
                                "the best published", "in the catalog"}) {
        QVERIFY2(!plan.out.contains(QLatin1String(english)), english);
    }
    const Run infer =
        runZh({QStringLiteral("infer"), example("llama-3-70b-serve-4xh100-fp8.json")});
    QCOMPARE(infer.exit_code, 0);
    for (const char* source : {"[整个部署的输出 token]", "[按最终上下文长度计]"}) {
        QVERIFY2(infer.out.contains(QString::fromUtf8(source)),
                 qPrintable(QString::fromUtf8(source) + QStringLiteral(" not in:\n") + infer.out));
    }
    // English asks for the English.
    const Run english = runWithLang(
        QStringLiteral("en"), {QStringLiteral("plan"), example("llama-3-70b-15t-1024-h100.json")});
    QVERIFY2(english.out.contains(QStringLiteral("[H100 SXM5 80GB TDP from its hardware profile]")),
             qPrintable(english.out));
}

// `calibrate` and the calibrated profile in Chinese: where the measured step came from ("entered
// with --step-s": "用 --step-s 输入"), the note of the calibration ("calibrated from a measured
// step of %1 s (%2 / %3)": "根据实测单步 %1 s 校准（%2 / %3）") and a log without timing lines.
void TestCliTranslation::calibrateInChinese() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("ws.sqlite"));
    const Run fit =
        runZh({QStringLiteral("calibrate"), example("llama-3-70b-15t-1024-h100.json"),
               QStringLiteral("--step-s"), QStringLiteral("5"), QStringLiteral("--db"), db});
    QCOMPARE(fit.exit_code, 0);
    QVERIFY2(fit.out.contains(QStringLiteral("5 s（用 --step-s 输入）")), qPrintable(fit.out));
    QVERIFY2(!fit.out.contains(QStringLiteral("entered with")), qPrintable(fit.out));

    const Run show = runZh({QStringLiteral("profiles"), QStringLiteral("--db"), db,
                            QStringLiteral("show"), QStringLiteral("h100-sxm-calibrated")});
    QCOMPARE(show.exit_code, 0);
    // "efficiency %1 = %2 s predicted / %3 s measured; %4" under the label "calibration".
    static const QRegularExpression row(QStringLiteral(
        "\\n  校准\\s+效率 0\\.\\d+ = 预测 4\\.\\d+ s / 实测 5 s；根据实测单步 5 s 校准（"
        "\\d{4}-\\d\\d-\\d\\d / 用 --step-s 输入）\\n"));
    QVERIFY2(row.match(show.out).hasMatch(), qPrintable(show.out));
    QVERIFY2(show.out.startsWith(QStringLiteral("H100 SXM5 80GB（已校准） (h100-sxm-calibrated, "
                                                "自定义)")),
             qPrintable(show.out));
    for (const char* english : {"calibration", "efficiency", "predicted", "measured", "entered"}) {
        QVERIFY2(!show.out.contains(QLatin1String(english)), english);
    }

    // A log without timing lines: "a training log with lines of ...; none of its %1 lines is one"
    // for --log.
    const QString log = dir.filePath(QStringLiteral("plain.log"));
    QFile f(log);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("training ...\nloss 3.2\n");
    f.close();
    const Run bad = runZh({QStringLiteral("calibrate"), example("llama-3-70b-15t-1024-h100.json"),
                           QStringLiteral("--log"), log, QStringLiteral("--db"), db});
    QCOMPARE(bad.exit_code, 2);
    QVERIFY2(bad.err.startsWith(QStringLiteral("tally: 错误：--log：给出的是 \"") + log +
                                QStringLiteral("\"；一个含有 \"elapsed time per iteration (ms): "
                                               "X\"（Megatron-LM）、")),
             qPrintable(bad.err));
    QVERIFY2(bad.err.trimmed().endsWith(QStringLiteral("行的训练日志；该文件的 2 行中一行也没有")),
             qPrintable(bad.err));
    QVERIFY2(!bad.err.contains(QStringLiteral("without")), qPrintable(bad.err));
}

// `import` in Chinese: a setting named with its line ("%1 (line %2)": "%1（第 %2 行）") and a
// switch given without a value ("a switch": "一个开关").
void TestCliTranslation::importErrorInChinese() {
    const QByteArray args =
        "python pretrain_gpt.py \\\n    --num-layers 8 \\\n    --no-such-switch \\\n"
        "    --hidden-size 1024\n";
    const Run r = runZh({QStringLiteral("import"), QStringLiteral("-"), QStringLiteral("--from"),
                         QStringLiteral("megatron")},
                        args);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.startsWith(
                 QStringLiteral("tally: 错误：no-such-switch（第 3 行）：给出的是 一个开关；")),
             qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral("(line")), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral("a switch")), qPrintable(r.err));
    // A serving command's unknown checkpoint and a line that is not UTF-8 name their line in
    // Chinese too.
    const Run model = runZh({QStringLiteral("import"), QStringLiteral("-"),
                             QStringLiteral("--from"), QStringLiteral("vllm")},
                            "vllm serve some-org/unknown-model -tp 2\n");
    QCOMPARE(model.exit_code, 2);
    QVERIFY2(model.err.startsWith(QStringLiteral("tally: 错误：model（第 1 行）")),
             qPrintable(model.err));
    const Run bytes = runZh({QStringLiteral("import"), QStringLiteral("-"),
                             QStringLiteral("--from"), QStringLiteral("vllm")},
                            "vllm serve meta-llama/Meta-Llama-3-8B\n\xff\xfe\n");
    QCOMPARE(bytes.exit_code, 2);
    QVERIFY2(bytes.err.startsWith(QStringLiteral("tally: 错误：第 2 行")), qPrintable(bytes.err));

    // A file read whole names its format in Chinese: "%1 as %2" is "%1 按 %2 读取", and
    // "Megatron-LM arguments" is "Megatron-LM 参数".
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("run.sh"));
    QCOMPARE(runZh({QStringLiteral("export"), example("llama-3-70b-15t-1024-h100.json"),
                    QStringLiteral("--to"), QStringLiteral("megatron"), QStringLiteral("-o"), file})
                 .exit_code,
             0);
    const Run read = runZh({QStringLiteral("import"), file});
    QCOMPARE(read.exit_code, 0);
    QVERIFY2(read.err.startsWith(file + QStringLiteral(" 按 Megatron-LM 参数读取")),
             qPrintable(read.err));
}

void TestCliTranslation::parseErrorsInChinese_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    // CLI11's "--days is required", "Could not convert: --days = abc" and "SPEC is required"
    // (CLI/Error.hpp): "必须给出 %1" and "无法转换：%1 = %2" in the catalogue.
    const QString spec = example("llama-3-70b-15t-1024-h100.json");
    QTest::newRow("required option")
        << QStringList{QStringLiteral("solve"), QStringLiteral("min-gpus"), spec}
        << QStringLiteral("必须给出 --days");
    QTest::newRow("not a number") << QStringList{QStringLiteral("solve"),
                                                 QStringLiteral("min-gpus"), spec,
                                                 QStringLiteral("--days"), QStringLiteral("abc")}
                                  << QStringLiteral("--days：给出的是 \"abc\"；需要一个数");
    // A word that is no command of `solve` is named with the commands there are ("%1 is not a
    // command of %2; one of: %3"), in the order `solve --help` lists them.
    QTest::newRow("unknown command")
        << QStringList{QStringLiteral("solve"), QStringLiteral("frob")}
        << QStringLiteral(
               "frob 不是 solve 的命令；可用的命令：max-params, layout, min-gpus, "
               "max-batch");
    QTest::newRow("required positional")
        << QStringList{QStringLiteral("plan")} << QStringLiteral("必须给出 SPEC");
    // A run id below 1: said as a whole number >= 1, not as CLI11's range of doubles up to
    // 1.8e308 written out in 309 digits.
    QTest::newRow("run id") << QStringList{QStringLiteral("--probe-run"), QStringLiteral("0")}
                            << QStringLiteral("--probe-run: 给出的是 0；需要一个 >= 1 的整数");
}

void TestCliTranslation::parseErrorsInChinese() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run r = runZh(args);
    QCOMPARE(r.exit_code, 2);
    // Led by "tally: error:" ("错误：") as the CLI's other errors are; "Run with %1 for more
    // information." is "加上 %1 运行可查看更多信息。".
    QCOMPARE(r.err, QStringLiteral("tally: 错误：") + message +
                        QStringLiteral("\n加上 --help 运行可查看更多信息。\n"));
    // The same in English, exit code included.
    const Run c = runWithLang(QStringLiteral("C"), args);
    QCOMPARE(c.exit_code, 2);
    QVERIFY2(c.err.startsWith(QStringLiteral("tally: error: ")), qPrintable(c.err));
    QVERIFY2(c.err.endsWith(QStringLiteral("\nRun with --help for more information.\n")),
             qPrintable(c.err));
}

// --lang may follow the command, where a reader adds it last: `tally plan X.json --lang zh_CN`
// prints the plan in Chinese ("并行布局", the parallel layout's row), as before the command.
void TestCliTranslation::langAfterTheCommand() {
    const QString spec = example("seed-70b-15t-1024-h100.json");
    const Run after = runWithLang(
        QStringLiteral("C"),
        {QStringLiteral("plan"), spec, QStringLiteral("--lang"), QStringLiteral("zh_CN")});
    QCOMPARE(after.exit_code, 0);
    QVERIFY2(after.out.contains(QStringLiteral("并行布局")), qPrintable(after.out));
    const Run before = runZh({QStringLiteral("plan"), spec});
    QCOMPARE(after.out, before.out);
}

QTEST_APPLESS_MAIN(TestCliTranslation)
#include "tst_cli_translation.moc"
