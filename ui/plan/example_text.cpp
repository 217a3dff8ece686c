#include "ui/plan/example_text.h"

#include <QCoreApplication>
#include <QString>
#include <string>
#include <unordered_map>

#include "planner/core/text.h"

namespace tally::ui {

namespace {

// The names and descriptions of resources/examples/*.json, as written there, for lupdate: the
// catalogue holds their translations under "tally::examples". tst_ui_translation checks that
// every shipped example has both, so an example edited without its translation is noticed.
[[maybe_unused]] const char* const kExampleTexts[] = {
    QT_TRANSLATE_NOOP(
        "tally::examples",
        "DeepSeek-V3 shape on 14.8T tokens, 2048 H800, fp8 compute, ZeRO-3, full recomputation"),
    QT_TRANSLATE_NOOP(
        "tally::examples",
        "DeepSeek-V3's model, tokens and cluster: 2048 H800 (DeepSeek-AI 2024, sec. 3.1), 14.8T "
        "tokens of 4K sequences (sec. 4.2), here with the simplest layout (ZeRO-3 over all 2048 "
        "GPUs, full recomputation, no model parallelism) and an assumed MFU of 0.3, as the "
        "lecture estimates time. The performance model shows why the report does otherwise: "
        "every step gathers and reduce-scatters all 671B parameters over the data-parallel "
        "group, and its predicted MFU is under a tenth of the assumed one. The report's own "
        "layout is 16-way pipeline, 64-way expert parallelism over 8 nodes and ZeRO-1 (sec. "
        "3.2: training.pp 16, training.expert_parallel 64, training.zero 1). The report's batch "
        "grows to 15360 sequences; 16384 is the nearest "
        "whole number of micro-batches on 2048 data-parallel GPUs. MFU 0.3 is an assumption, "
        "not from the report."),
    QT_TRANSLATE_NOOP("tally::examples", "DeepSeek-V3 served on 8 H200 at fp8"),
    QT_TRANSLATE_NOOP(
        "tally::examples",
        "Serving plan (tally infer): DeepSeek-V3 in its native fp8 weights (DeepSeek-AI 2024, sec. "
        "3.3) on one 8-GPU H200 node, tensor-parallel over all 8, with a bf16 latent KV cache "
        "(multi-head latent attention: 512 + 64 values per token and layer, kept whole on every "
        "GPU). 64 sequences of a 4096-token prompt and 1024 output tokens. The data and training "
        "blocks are the spec format's and do not enter the serving plan."),
    QT_TRANSLATE_NOOP("tally::examples", "CS336 lecture 2: the deep ReLU network (D x D blocks)"),
    QT_TRANSLATE_NOOP("tally::examples",
                      "D^2 L parameters; 6 B D^2 L training FLOPs per step; 2 B D L bytes of bf16 "
                      "activations (seeds 000, 002)"),
    QT_TRANSLATE_NOOP(
        "tally::examples",
        "Llama 2 70B on 2T tokens, 2048 H100: tp 8, pp 4, sequence parallel, selective recompute"),
    QT_TRANSLATE_NOOP(
        "tally::examples",
        "Llama 3 70B on 15T tokens, 1024 H100: tp 8, pp 4, sequence parallel, ZeRO-1"),
    QT_TRANSLATE_NOOP("tally::examples",
                      "Mistral 7B served at 32K tokens on one H100: the rolling KV cache"),
    QT_TRANSLATE_NOOP(
        "tally::examples",
        "Serving plan (tally infer): Mistral 7B v0.1, whose 32 layers attend through a 4096-token "
        "sliding window (Jiang et al. 2023, sec. 2), on one H100 with bf16 weights and cache: 8 "
        "sequences of a 32000-token prompt and 768 output tokens, 32768 in all. Each layer keeps "
        "only its last 4096 positions (a rolling buffer), so the cache is 4096 / 32768 = 1/8 of "
        "what full attention would keep: the paper's 'on a sequence length of 32k tokens, this "
        "reduces the cache memory usage by 8x'. Set the sliding window to none to see the full "
        "cache. The data and training blocks are the spec format's and do not enter the serving "
        "plan."),
    QT_TRANSLATE_NOOP("tally::examples", "Llama 3 70B served on 4 H100 at fp8"),
    QT_TRANSLATE_NOOP(
        "tally::examples",
        "Serving plan (tally infer): Llama 3 70B with fp8 weights and a bf16 KV cache, "
        "tensor-parallel over the 4 GPUs, 32 sequences of a 2048-token prompt and 512 output "
        "tokens. The price of 2.50 per GPU-hour is an illustrative rental rate, not a quote. The "
        "data and training blocks are the spec format's (tally plan reads the same file) and do "
        "not enter the serving plan."),
    QT_TRANSLATE_NOOP("tally::examples",
                      "CS336 lecture 2: arithmetic intensity and the roofline on an H100"),
    QT_TRANSLATE_NOOP(
        "tally::examples",
        "bf16 throughout. ReLU on 1e6 values: 1e6 FLOPs / (2e6 + 2e6) bytes = 0.25; GELU at 20 "
        "FLOPs/value: 2e7 / 4e6 = 5; dot of two 1e6-vectors: 2e6 / (4e6 + 2) = 0.4999995; 1024 x "
        "1024 matrix times vector: 2·1024² / (2·1024² + 4·1024) = 0.998; 1024³ matmul: 2·1024³ / "
        "(3·2·1024²) = 341.3; H100 ridge (1979e12/2) / 3.35e12 = 295.4: everything but the matmul "
        "is memory-bound (seeds 000, 003). The einsums are the lecture's: a linear layer 2·B·D·K, "
        "attention scores, and '...' leading dimensions. The model's layers are Llama 2 70B (the "
        "seed's 70B question) at micro-batch 1 x 4096 tokens, trained with ZeRO-3 and full "
        "recomputation so that it fits the 1024 H100s (10.5 GB a GPU); neither changes where the "
        "layers sit on the roofline."),
    QT_TRANSLATE_NOOP(
        "tally::examples",
        "CS336 lecture 2, question 1: 70B parameters, 15T tokens, 1024 H100, MFU 0.5"),
    QT_TRANSLATE_NOOP("tally::examples",
                      "total_flops = 6 x 70e9 x 15e12 = 6.3e24; days = 6.3e24 / (1979e12/2 x 0.5 x "
                      "1024 x 86400) = 143.9 (seeds 002, 003)"),
    QT_TRANSLATE_NOOP("tally::examples",
                      "CS336 lecture 2, question 2: largest model AdamW trains on 8 x 80 GB (bf16 "
                      "params and grads, fp32 states)"),
    QT_TRANSLATE_NOOP("tally::examples",
                      "bytes per parameter = 2 + 2 + (4 + 4) = 12 with no fp32 master copy; 8 x "
                      "80e9 / 12 = 5.33e10 (seeds 000, 003). ZeRO-3 spreads the model state over "
                      "all 8 GPUs, as the lecture's total-memory division assumes."),
    QT_TRANSLATE_NOOP("tally::examples",
                      "CS336 lecture 2 notes, question 2 in fp32: 4 + 4 + (4 + 4) = 16 bytes per "
                      "parameter on 8 x 80 GB"),
    QT_TRANSLATE_NOOP("tally::examples", "num_parameters = (80e9 x 8) / 16 = 4e10 (seed 002)"),
};

// Each example text given out, in every language it was given in, with the English it came from:
// a language switch puts a plan's example name back in the new language (relocalizedExample
// Text()). The GUI thread alone calls these.
std::unordered_map<std::string, std::string>& sources() {
    static std::unordered_map<std::string, std::string> map;
    return map;
}

std::string localized(const std::string& english) {
    if (english.empty()) {
        return english;
    }
    std::string text = QCoreApplication::translate(kExampleContext, english.c_str()).toStdString();
    sources().emplace(english, english);
    sources().emplace(text, english);
    return text;
}

}  // namespace

PlanSpec localizedExample(PlanSpec spec) {
    spec.name = localized(spec.name);
    spec.description = localized(spec.description);
    return spec;
}

std::string relocalizedExampleText(const std::string& text) {
    const auto it = sources().find(text);
    return it == sources().end() ? text : localized(std::string(it->second));
}

}  // namespace tally::ui
