// docs/cases/serving: published serving measurements (TensorRT-LLM's performance-overview
// tables) as specs. Each must stay a valid serving spec with a measured figure and its source,
// and docs/serving.md's accuracy table must be the one these cases give today: the table is
// regenerated from them (scripts/serving-accuracy.sh), never edited by hand.
#include <QtTest>

#include <fmt/core.h>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "planner/hardware/hardware.h"
#include "planner/io/spec_json.h"
#include "planner/serving/inference.h"

using namespace tally;

namespace {

const char* const kBegin = "<!-- serving-accuracy:begin (scripts/serving-accuracy.sh) -->";
const char* const kEnd = "<!-- serving-accuracy:end -->";

struct Row {
    std::string file;
    std::string name;
    std::string metric;  // "output tokens/s" or "TTFT"
    double measured = 0.0;
    double predicted = 0.0;
    double error() const { return predicted / measured - 1.0; }
};

std::vector<Row> evaluate_cases() {
    const QDir dir(QStringLiteral(TALLY_SOURCE_DIR "/docs/cases/serving"));
    std::vector<Row> rows;
    for (const QString& file : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        const PlanSpec spec = load_plan_spec(dir.filePath(file).toStdString());
        const HardwareProfile& hw = resolve_builtin_hardware(spec);
        if (check_inference(spec, hw)) {
            continue;  // the validity test reports it by name
        }
        const ServingPlan plan = evaluate_inference(spec, hw);
        if (spec.measured.output_tokens_per_s > 0.0) {
            rows.push_back({file.toStdString(), spec.name, "output tokens/s",
                            spec.measured.output_tokens_per_s, plan.tokens_per_s});
        }
        if (spec.measured.ttft_s > 0.0) {
            // A batch of one prompt with one output token: the time to first token is the
            // prefill pass.
            rows.push_back({file.toStdString(), spec.name, "TTFT (ms)", spec.measured.ttft_s * 1e3,
                            plan.prefill_s * 1e3});
        }
    }
    return rows;
}

std::string figure(double v) {
    return v >= 100.0 ? fmt::format("{:.0f}", v) : fmt::format("{:.3g}", v);
}

// The section of docs/serving.md between the markers.
std::string accuracy_table(const std::vector<Row>& rows) {
    std::string out;
    out += kBegin;
    out += "\n\n| metric | cases | mean abs. error | mean signed | worst | within 15% |\n";
    out += "|---|---|---|---|---|---|\n";
    std::vector<std::string> metrics;
    for (const Row& r : rows) {
        if (std::find(metrics.begin(), metrics.end(), r.metric) == metrics.end()) {
            metrics.push_back(r.metric);
        }
    }
    for (const std::string& m : metrics) {
        double abs_sum = 0.0, sum = 0.0, worst = 0.0;
        int n = 0, within = 0;
        for (const Row& r : rows) {
            if (r.metric != m) {
                continue;
            }
            const double e = r.error();
            ++n;
            abs_sum += std::abs(e);
            sum += e;
            within += std::abs(e) <= 0.15 ? 1 : 0;
            worst = std::abs(e) > std::abs(worst) ? e : worst;
        }
        out += fmt::format("| {} | {} | {:.1f}% | {:+.1f}% | {:+.1f}% | {} of {} |\n", m, n,
                           100.0 * abs_sum / n, 100.0 * sum / n, 100.0 * worst, within, n);
    }
    out += "\nEvery case (error = predicted / measured - 1):\n\n";
    out += "| case | metric | measured | predicted | error |\n|---|---|---|---|---|\n";
    for (const Row& r : rows) {
        out += fmt::format("| {} | {} | {} | {} | {:+.1f}% |\n", r.name, r.metric,
                           figure(r.measured), figure(r.predicted), 100.0 * r.error());
    }
    out += "\n";
    out += kEnd;
    return out;
}

QString docPath() {
    return QStringLiteral(TALLY_SOURCE_DIR "/docs/serving.md");
}

}  // namespace

class TestServingCases : public QObject {
    Q_OBJECT

private slots:
    void casesAreValid();
    void accuracyTableIsCurrent();
};

void TestServingCases::casesAreValid() {
    const QDir dir(QStringLiteral(TALLY_SOURCE_DIR "/docs/cases/serving"));
    const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files);
    // The 138 rows of TensorRT-LLM's tables that state a batch (scripts/import-serving-cases.py).
    QCOMPARE(files.size(), 138);
    for (const QString& file : files) {
        const PlanSpec spec = load_plan_spec(dir.filePath(file).toStdString());
        const HardwareProfile& hw = resolve_builtin_hardware(spec);
        const auto error = check_inference(spec, hw);
        QVERIFY2(!error, qPrintable(file + QStringLiteral(": ") +
                                    QString::fromStdString(error ? error->field : "")));
        QVERIFY2(spec.measured.output_tokens_per_s > 0.0 || spec.measured.ttft_s > 0.0,
                 qPrintable(file));
        QVERIFY2(spec.measured.source.find("TensorRT-LLM") != std::string::npos, qPrintable(file));
        QCOMPARE(spec.inference.engine, ServingEngine::tensorrt_llm);
        const ServingPlan plan = evaluate_inference(spec, hw);
        QVERIFY2(plan.tokens_per_s > 0.0 && std::isfinite(plan.tokens_per_s), qPrintable(file));
        QVERIFY2(plan.prefill_s > 0.0 && std::isfinite(plan.prefill_s), qPrintable(file));
    }
}

void TestServingCases::accuracyTableIsCurrent() {
    const std::string table = accuracy_table(evaluate_cases());
    QFile in(docPath());
    QVERIFY(in.open(QIODevice::ReadOnly));
    std::string doc = in.readAll().toStdString();
    in.close();
    const auto begin = doc.find(kBegin);
    const auto end = doc.find(kEnd);
    QVERIFY2(begin != std::string::npos && end != std::string::npos && end > begin,
             "docs/serving.md lacks the accuracy-table markers");
    const std::string current = doc.substr(begin, end + std::string(kEnd).size() - begin);
    if (qEnvironmentVariableIsSet("TALLY_WRITE_SERVING_TABLE")) {
        doc.replace(begin, current.size(), table);
        QSaveFile out(docPath());
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QByteArray::fromStdString(doc));
        QVERIFY(out.commit());
        return;
    }
    QVERIFY2(current == table,
             "docs/serving.md's accuracy table is stale: run scripts/serving-accuracy.sh");
}

QTEST_GUILESS_MAIN(TestServingCases)
#include "tst_serving_cases.moc"
