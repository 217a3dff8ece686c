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
    // Output tokens/s at the datasheet peaks (speed_of_light_tokens_per_s()); 0 for TTFT rows.
    double bound = 0.0;
    double error() const { return predicted / measured - 1.0; }
    // A published figure no run can reach on the stated part: set apart, not averaged.
    bool above_bound() const { return bound > 0.0 && measured > bound; }
};

// The most output tokens/s a static batch can reach on the part's datasheet peaks, whatever
// the engine does: every decode step reads its GPU's weights (decode.weight_bytes: for a mixture
// of experts, the experts the batch touches) and the batch's KV cache, which grows by a token a
// step, and the prompts' GEMM FLOPs run once (Williams et al. 2009's roofline with the two
// costs added, as a step cannot overlap its own reads with another step's). A measured figure
// above it cannot be what the source says it is (the wrong precision, part or length).
double speed_of_light_tokens_per_s(const PlanSpec& spec, const HardwareProfile& hw,
                                   const ServingPlan& plan) {
    const InferenceSpec& in = spec.inference;
    const double b = static_cast<double>(in.batch);
    const double p = static_cast<double>(in.prompt_tokens);
    const double o = static_cast<double>(in.output_tokens);
    // Steps 1..o read the cache at p + 1 .. p + o tokens: o·p + o(o + 1)/2 token-reads a sequence.
    const double kv_reads = b * (o * p + o * (o + 1.0) / 2.0) * plan.kv.bytes_per_token_per_gpu;
    const double bytes = o * plan.decode.weight_bytes + kv_reads;
    const double prefill_flops =
        plan.prefill.tokens > 0.0 ? plan.prefill.gemm_flops * b * p / plan.prefill.tokens : 0.0;
    const double peak = hw.peak(plan.gemm_type);
    const double seconds =
        bytes / hw.bandwidth_bytes_per_s + (peak > 0.0 ? prefill_flops / peak : 0.0);
    return seconds > 0.0 ? static_cast<double>(plan.replicas) * b * o / seconds : 0.0;
}

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
                            spec.measured.output_tokens_per_s, plan.tokens_per_s,
                            speed_of_light_tokens_per_s(spec, hw, plan)});
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
            if (r.metric != m || r.above_bound()) {
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
    std::vector<const Row*> apart;
    for (const Row& r : rows) {
        if (r.above_bound()) {
            apart.push_back(&r);
        }
    }
    if (!apart.empty()) {
        out +=
            "\nSet apart, not counted above: measured above the speed-of-light bound (every "
            "decode step reading the weights and the KV cache at the datasheet bandwidth, the "
            "prompts' GEMMs at the datasheet peak), which no run on the stated part reaches:\n\n";
        out += "| case | measured | bound | predicted |\n|---|---|---|---|\n";
        for (const Row* r : apart) {
            out += fmt::format("| {} | {} | {} | {} |\n", r->name, figure(r->measured),
                               figure(r->bound), figure(r->predicted));
        }
    }
    out += "\nEvery case (error = predicted / measured - 1):\n\n";
    out += "| case | metric | measured | predicted | error |\n|---|---|---|---|---|\n";
    for (const Row& r : rows) {
        out += fmt::format("| {} | {} | {} | {} | {:+.1f}%{} |\n", r.name, r.metric,
                           figure(r.measured), figure(r.predicted), 100.0 * r.error(),
                           r.above_bound() ? " (set apart)" : "");
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
    void predictionsStayUnderTheBound();
    void mixtralRowIsAboveTheBound();
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

// The model runs every part at or below its datasheet peak and adds costs the bound leaves out,
// so no prediction may beat the speed-of-light bound.
void TestServingCases::predictionsStayUnderTheBound() {
    for (const Row& r : evaluate_cases()) {
        if (r.bound > 0.0) {
            QVERIFY2(r.predicted <= r.bound * (1.0 + 1e-9),
                     qPrintable(QString::fromStdString(r.file)));
        }
    }
}

// TensorRT-LLM 0.9's A100 table gives Mixtral 8x7B, tp 2, batch 32, 2048/2048 in fp16 as 801
// output tokens/s per GPU, 1602 for the pair: 32 x 2048 tokens in 40.9 s. Each GPU holds half of
// 46.7e9 parameters at 2 bytes, and at batch 32 every expert is picked ((6/8)^32 = 1e-4 left
// out), so each of the 2048 steps reads about 46.6e9 bytes: at the A100's 2.039e12 bytes/s that
// is 22.8 ms a step, 46.8 s for the steps alone, longer than the 40.9 s the figure implies.
void TestServingCases::mixtralRowIsAboveTheBound() {
    const std::vector<Row> rows = evaluate_cases();
    const auto it = std::find_if(rows.begin(), rows.end(), [](const Row& r) {
        return r.file == "trtllm-v0-9-thr-a100-mixtral-8x7b-tp2-bs32-2048-2048.json";
    });
    QVERIFY(it != rows.end());
    QCOMPARE(it->measured, 1602.0);
    QVERIFY(it->above_bound());
    // 32 x 2048 / (2048 x 22.8 ms) = 1400 tokens/s from the weights alone: the bound is lower.
    QVERIFY(it->bound < 32.0 * 2048.0 / (2048.0 * 46.6e9 / 2.039e12));
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
