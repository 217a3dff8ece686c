// docs/cases/serving: published serving measurements (TensorRT-LLM's performance-overview
// tables) as specs. Each must stay a valid serving spec with a measured figure and its source,
// and docs/serving.md's accuracy table must be the one these cases give today: the table is
// regenerated from them (scripts/serving-accuracy.sh), never edited by hand.
#include <QtTest>

#include <fmt/core.h>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "planner/hardware/hardware.h"
#include "planner/io/serving_case_accuracy.h"
#include "planner/io/spec_json.h"
#include "planner/serving/inference.h"

using namespace tally;

namespace {

const char* const kBegin = "<!-- serving-accuracy:begin (scripts/serving-accuracy.sh) -->";
const char* const kEnd = "<!-- serving-accuracy:end -->";

// The serving figures of every case, as the shipped table counts them.
std::vector<ServingCaseResult> evaluate_cases() {
    return evaluate_serving_cases(TALLY_SOURCE_DIR "/docs/cases/serving");
}

std::string figure(double v) {
    return v >= 100.0 ? fmt::format("{:.0f}", v) : fmt::format("{:.3g}", v);
}

// The section of docs/serving.md between the markers.
std::string accuracy_table(const std::vector<ServingCaseResult>& rows) {
    std::string out;
    out += kBegin;
    out += "\n\n| metric | cases | mean abs. error | mean signed | worst | within 15% |\n";
    out += "|---|---|---|---|---|---|\n";
    std::vector<ServingMetric> metrics;
    for (const ServingCaseResult& r : rows) {
        if (std::find(metrics.begin(), metrics.end(), r.metric) == metrics.end()) {
            metrics.push_back(r.metric);
        }
    }
    for (const ServingMetric m : metrics) {
        double abs_sum = 0.0, sum = 0.0, worst = 0.0;
        int n = 0, within = 0;
        for (const ServingCaseResult& r : rows) {
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
        out +=
            fmt::format("| {} | {} | {:.1f}% | {:+.1f}% | {:+.1f}% | {} of {} |\n", metric_label(m),
                        n, 100.0 * abs_sum / n, 100.0 * sum / n, 100.0 * worst, within, n);
    }
    std::vector<const ServingCaseResult*> apart;
    for (const ServingCaseResult& r : rows) {
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
        for (const ServingCaseResult* r : apart) {
            out += fmt::format("| {} | {} | {} | {} |\n", r->name, figure(r->measured),
                               figure(r->bound), figure(r->predicted));
        }
    }
    out += "\nEvery case (error = predicted / measured - 1):\n\n";
    out += "| case | metric | measured | predicted | error |\n|---|---|---|---|---|\n";
    for (const ServingCaseResult& r : rows) {
        out += fmt::format("| {} | {} | {} | {} | {:+.1f}%{} |\n", r.name, metric_label(r.metric),
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
    void shippedBandsAreTheCasesToday();
    void errorBandIsTheFamilysFigures();
};

void TestServingCases::casesAreValid() {
    const QDir dir(QStringLiteral(TALLY_SOURCE_DIR "/docs/cases/serving"));
    const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files);
    // The 138 rows of TensorRT-LLM's tables that state a batch (scripts/import-serving-cases.py)
    // and the 8 concurrencies of NVIDIA NIM's Llama 3.3 70B sweep on 2 H100.
    QCOMPARE(files.size(), 146);
    for (const QString& file : files) {
        const PlanSpec spec = load_plan_spec(dir.filePath(file).toStdString());
        const HardwareProfile& hw = resolve_builtin_hardware(spec);
        const auto error = check_inference(spec, hw);
        QVERIFY2(!error, qPrintable(file + QStringLiteral(": ") +
                                    QString::fromStdString(error ? error->field : "")));
        QVERIFY2(spec.measured.output_tokens_per_s > 0.0 || spec.measured.ttft_s > 0.0,
                 qPrintable(file));
        QVERIFY2(spec.measured.source.find("TensorRT-LLM") != std::string::npos ||
                     spec.measured.source.find("NVIDIA NIM") != std::string::npos,
                 qPrintable(file));
        QCOMPARE(spec.inference.engine, ServingEngine::tensorrt_llm);
        const ServingPlan plan = evaluate_inference(spec, hw);
        QVERIFY2(plan.tokens_per_s > 0.0 && std::isfinite(plan.tokens_per_s), qPrintable(file));
        QVERIFY2(plan.prefill_s > 0.0 && std::isfinite(plan.prefill_s), qPrintable(file));
    }
}

// The model runs every part at or below its datasheet peak and adds costs the bound leaves out,
// so no prediction may beat the speed-of-light bound.
void TestServingCases::predictionsStayUnderTheBound() {
    for (const ServingCaseResult& r : evaluate_cases()) {
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
    const std::vector<ServingCaseResult> rows = evaluate_cases();
    const auto it = std::find_if(rows.begin(), rows.end(), [](const ServingCaseResult& r) {
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

// resources/cases/serving_accuracy.json, which `tally infer` and the Inference panel read their
// bands from, must be what the cases give today (written with the docs table by
// scripts/serving-accuracy.sh).
void TestServingCases::shippedBandsAreTheCasesToday() {
    const QString path = QStringLiteral(TALLY_SOURCE_DIR "/resources/cases/serving_accuracy.json");
    const nlohmann::json now = serving_accuracy_json(evaluate_cases());
    if (qEnvironmentVariableIsSet("TALLY_WRITE_SERVING_TABLE")) {
        QSaveFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QByteArray::fromStdString(now.dump(1) + "\n"));
        QVERIFY(out.commit());
    }
    QFile in(path);
    QVERIFY2(in.open(QIODevice::ReadOnly), "resources/cases/serving_accuracy.json is missing");
    const nlohmann::json shipped = nlohmann::json::parse(in.readAll().toStdString());
    QCOMPARE(shipped["cases"].size(), now["cases"].size());
    for (std::size_t i = 0; i < now["cases"].size(); ++i) {
        const auto& a = now["cases"][i];
        const auto& b = shipped["cases"][i];
        QCOMPARE(b["file"].get<std::string>(), a["file"].get<std::string>());
        QCOMPARE(b["metric"].get<std::string>(), a["metric"].get<std::string>());
        const double x = a["error"].get<double>();
        const double y = b["error"].get<double>();
        QVERIFY2(std::abs(x - y) <= 1e-9 * std::max(1.0, std::abs(x)),
                 qPrintable(QStringLiteral("%1: shipped %2, today %3; run "
                                           "scripts/serving-accuracy.sh")
                                .arg(QString::fromStdString(a["file"].get<std::string>()))
                                .arg(y)
                                .arg(x)));
    }
    QCOMPARE(shipped["families"].size(), now["families"].size());
}

// The band a serving plan shows is the mean and worst absolute error of the published figures of
// its engine, GPU family and metric, computed here again from the case rows themselves; the
// figure set apart above the bound is in no band, and an engine without published cases has
// none.
void TestServingCases::errorBandIsTheFamilysFigures() {
    const std::vector<ServingCaseResult> rows = evaluate_cases();
    for (const auto& [gpu, metric] :
         {std::pair<std::string, ServingMetric>{"H100/H200", ServingMetric::output_tokens_per_s},
          {"A100", ServingMetric::output_tokens_per_s},
          {"A100", ServingMetric::ttft},
          {"l40s", ServingMetric::ttft}}) {
        int n = 0;
        double abs_sum = 0.0, worst = 0.0;
        for (const ServingCaseResult& r : rows) {
            if (r.gpu == gpu && r.metric == metric && !r.continuous && !r.above_bound()) {
                ++n;
                abs_sum += std::abs(r.error());
                worst = std::max(worst, std::abs(r.error()));
            }
        }
        QVERIFY2(n > 0, gpu.c_str());
        const auto band = serving_error_band(ServingEngine::tensorrt_llm, gpu, false, metric);
        QVERIFY2(band.has_value(), gpu.c_str());
        QCOMPARE(band->count, n);
        QVERIFY(std::abs(band->mean_abs_error - abs_sum / n) < 1e-12);
        QVERIFY(std::abs(band->worst_abs_error - worst) < 1e-12);
    }
    // The Mixtral row above the bound (A100, output tokens/s) is in no band: 24 A100 rows of
    // output tokens/s in docs/serving.md (six models at four lengths each), one set
    // apart.
    const auto a100 = serving_error_band(ServingEngine::tensorrt_llm, "A100", false,
                                         ServingMetric::output_tokens_per_s);
    QVERIFY(a100.has_value());
    QCOMPARE(a100->count, 23);
    // No published vLLM figure, and no inter-token latency in the TensorRT-LLM tables' static
    // batches.
    QVERIFY(!serving_error_band(ServingEngine::vllm, "H100/H200", false,
                                ServingMetric::output_tokens_per_s));
    QVERIFY(
        !serving_error_band(ServingEngine::tensorrt_llm, "H100/H200", false, ServingMetric::itl));
    // Continuous batching: NIM's sweep on 2 H100, eight concurrencies, each with its throughput,
    // TTFT and ITL.
    for (ServingMetric metric : kServingMetrics) {
        const auto band =
            serving_error_band(ServingEngine::tensorrt_llm, "H100/H200", true, metric);
        QVERIFY(band.has_value());
        QCOMPARE(band->count, 8);
    }
}

QTEST_GUILESS_MAIN(TestServingCases)
#include "tst_serving_cases.moc"
