// Launch configurations: a plan as Megatron-LM arguments, NeMo overrides, a torchtitan TOML, a
// DeepSpeed JSON and an accelerate YAML, and back.
//
// The names are checked against lists taken from the frameworks' own sources, in
// tests/data/launch/ (each file's header names the repository, the file and the commit):
// Megatron-LM megatron/training/arguments.py at core_v0.12.0 (d580efc68a9f0dbf1945f834f6f6200cd01
// d343); torchtitan torchtitan/config/job_config.py at v0.2.2 (73a0e6979dd10b6b1904098eb3c8f62c18
// ab87ce); DeepSpeed deepspeed/runtime/{constants,zero/config,zero/offload_config,
// activation_checkpointing/config,precision_config}.py at edaa7221267243c7be7fb49c5d5f5c4fb97b4641;
// accelerate src/accelerate/commands/config/config_args.py and utils/launch.py at 16cb6eb80dd9aa8b4
// df1a63ef57863e455d53b83; NeMo 8cfedd7203462cb251a914e700e5605444277561 with Megatron-Core's
// TransformerConfig at core_v0.12.0.
#include <QtTest>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/io/launch/launch_config.h"
#include "planner/io/launch/launch_fields.h"
#include "planner/io/launch/serving_launch.h"
#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/model/pipeline_stages.h"
#include "planner/serving/inference.h"
#include "planner/training/plan.h"

using namespace tally;

namespace {

std::set<std::string> name_list(const char* file) {
    std::set<std::string> names;
    std::ifstream in(std::string(TALLY_SOURCE_DIR) + "/tests/data/launch/" + file);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] != '#') {
            names.insert(line);
        }
    }
    return names;
}

const char* list_file(LaunchTarget t) {
    switch (t) {
        case LaunchTarget::megatron:
            return "megatron.txt";
        case LaunchTarget::nemo:
            return "nemo.txt";
        case LaunchTarget::torchtitan:
            return "torchtitan.txt";
        case LaunchTarget::deepspeed:
            return "deepspeed.txt";
        case LaunchTarget::accelerate:
            return "accelerate.txt";
    }
    return "";
}

// Every shipped example and every case of docs/cases.
std::vector<std::string> spec_files() {
    std::vector<std::string> files;
    for (const char* dir : {"/resources/examples", "/docs/cases"}) {
        for (const auto& e :
             std::filesystem::directory_iterator(std::string(TALLY_SOURCE_DIR) + dir)) {
            if (e.path().extension() == ".json") {
                files.push_back(e.path().string());
            }
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

// The text without its comment lines (the header names the plan, which an import renames).
std::string without_comments(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    std::string out;
    while (std::getline(in, line)) {
        if (line.rfind("#", 0) != 0) {
            out += line + "\n";
        }
    }
    return out;
}

// DeepSeek-V3 on 2048 H100: tp 2 with sequence parallelism, pp 16 (61 layers: uneven stages),
// ep 8, ZeRO-1.
PlanSpec deepseek_on_2048() {
    return plan_spec_from_text(R"({"model": {"preset": "deepseek-v3"},
        "data": {"tokens": 1e12, "seq_len": 4096, "global_batch": 4096, "micro_batch": 1},
        "cluster": {"gpu": "h100-sxm", "gpus": 2048},
        "training": {"tp": 2, "pp": 16, "expert_parallel": 8, "zero": 1,
                     "sequence_parallel": true}})");
}

// Refused: the spec field the export names; "" when it exported.
std::string refusal_field(const PlanSpec& spec, LaunchTarget target) {
    try {
        (void)export_launch_config(spec, target);
    } catch (const SpecError& e) {
        return e.field();
    }
    return {};
}

LaunchImport import_text(const std::string& text, LaunchTarget target,
                         std::optional<ModelSpec> model = std::nullopt) {
    LaunchImportOptions options;
    options.from = target;
    options.model = std::move(model);
    return import_launch_config(text, "test", options);
}

// The field of the SpecError an import throws; "" when it is accepted.
QString import_error(const std::string& text, LaunchTarget target, QString* message = nullptr) {
    try {
        (void)import_text(text, target);
    } catch (const SpecError& e) {
        if (message) {
            *message = QString::fromUtf8(e.what());
        }
        return QString::fromStdString(e.field());
    }
    return {};
}

// Llama 3 8B on 64 H100s at 8192 tokens a sequence, 512 sequences a step, with Tally's own
// settings away from their defaults (an assumed MFU, a price, the attention-aware FLOPs
// formula); `training` adds the layout.
PlanSpec eight_b(const std::string& training) {
    nlohmann::json spec = nlohmann::json::parse(R"({
  "name": "Llama 3 8B, 64 H100",
  "model": {"preset": "llama-3-8b"},
  "data": {"tokens": 1e12, "seq_len": 8192, "global_batch": 512, "micro_batch": 1},
  "cluster": {"gpu": "h100-sxm", "gpus": 64, "mfu": 0.3, "price_per_gpu_hour": 2.5},
  "training": {"param_dtype": "bf16", "grad_dtype": "bf16", "master_dtype": "fp32",
               "optimizer": "adamw", "recompute": "none", "flops_formula": "attention"}
})");
    // The layout's keys replace the base's (a spec may not give a key twice).
    spec["training"].update(nlohmann::json::parse("{" + training + "}"));
    return plan_spec_from_text(spec.dump());
}

// The plan of a 70B run sharded by ZeRO-3 (ZeRO-1 where the target has no ZeRO-3) over 512
// H100s: 15e12 tokens of 8192 a sequence, 512 sequences a step (one per GPU), $2.5 a GPU-hour,
// an assumed MFU of 0.4. Its days rest on every one of these.
PlanSpec seventy_b(int zero) {
    nlohmann::json spec = nlohmann::json::parse(R"({
  "name": "Llama 3 70B, 512 H100, ZeRO-3",
  "model": {"preset": "llama-3-70b"},
  "data": {"tokens": 15e12, "seq_len": 8192, "global_batch": 512, "micro_batch": 1},
  "cluster": {"gpu": "h100-sxm", "gpus": 512, "mfu": 0.4, "price_per_gpu_hour": 2.5},
  "training": {"param_dtype": "bf16", "grad_dtype": "bf16", "master_dtype": "fp32",
               "optimizer": "adamw", "recompute": "full", "tp": 1, "pp": 1}
})");
    spec["training"]["zero"] = zero;
    return plan_spec_from_text(spec.dump());
}

// Every leaf of the spec's JSON by its dotted path ("data.seq_len").
std::map<std::string, nlohmann::json> spec_leaves(const PlanSpec& spec) {
    std::map<std::string, nlohmann::json> leaves;
    const nlohmann::json flat = to_json(spec).flatten();
    for (const auto& [pointer, value] : flat.items()) {
        std::string path = pointer.substr(1);
        std::replace(path.begin(), path.end(), '/', '.');
        leaves[path] = value;
    }
    return leaves;
}

bool names(const LaunchImport& r, const std::string& start) {
    return std::any_of(r.guesses.begin(), r.guesses.end(),
                       [&](const Text& g) { return g.english().rfind(start, 0) == 0; });
}

std::string guesses_text(const LaunchImport& r) {
    std::string text;
    for (const Text& g : r.guesses) {
        text += g.english() + "\n";
    }
    return text;
}

}  // namespace

class TestLaunchConfig : public QObject {
    Q_OBJECT

private slots:
    void unevenStagesTravelAsTheirFlags();
    void qkLayernormTravelsWithTheModel();
    void mtpLayersTravelWithTheModel();
    void recomputeModulesTravelAsAList();
    void exportsSayWhenThePlanDoesNotFit();
    void nemoOffloadsActivationsOnly();
    void interleavedUnevenStagesAsMegatronCoreTakesThem();
    void vllmCommandSetsWhatThePlanCounts();
    void sglangCommandForExperts();
    void trtllmCommandForExperts();
    void servingCommandAcrossHosts();
    void servingCommandIsNotImported();
    void servingCommandRefusals();
    void quantizedPresetCheckpointServesItsOwnDtype();
    void servingCommandPastTheContext();
    void servingCommandSaysWhenTheCacheHoldsNothing();
    void servingCommandRoundTrips();
    void vllmCommandWrittenByHand();
    void sglangCommandWrittenByHand();
    void trtllmCommandWithItsOptionsFile();
    void servingImportRefusals();
    void servingCommandsAsTeamsWriteThem();
    void roundTrip_data();
    void roundTrip();
    void megatronExportsEveryCase();
    void slidingWindowWhereTheFrameworkHasIt();
    void namesAreTheFrameworks_data();
    void namesAreTheFrameworks();
    void megatronArgumentsOfTheStartPlan();
    void launcherNodesAreHosts();
    void megatronRefusesZero2();
    void torchtitanFlavours();
    void torchtitanImport();
    void torchtitanContextParallelShards();
    void megatronLogBlock();
    void megatronBatchRampup();
    void megatronLogBlockOfAnMoeRun();
    void megatronDerivesTheMlpWidth();
    void megatronFullRecomputeNeedsAMethod();
    void megatronScriptWithBashArrays();
    void lessThanOneStepRunsOneStep();
    void deepspeedWithConfigJson();
    void accelerateYaml();
    void badInput_data();
    void badInput();
    void unknownIsListedWhenAllowed();
    void megatronBlockRecomputeAndTpOverlap();
    void crossEntropyFusionTravelsAsItsTwoFlags();
    void selectiveRecomputeTakesNoMethodOrCount();
    void nothingIsDroppedSilently();
    void everyValueComesBackOrIsNamed_data();
    void everyValueComesBackOrIsNamed();
    void carriedSettingsReadBack();
    void megatronFlexDispatcher();
    void megatronNvfp4();
    void megatronAndNemoGradientsInFp32UnlessTold();
    void torchtitanTensorParallelIsSequenceParallel();
    void torchtitanOptimizerAndConverters();
    void importListsWhatItAssumed_data();
    void importListsWhatItAssumed();
    void tallySettingsTravelInComments();
    void exactTokensTravelInComments();
    void importKeepsNothingTheFrameworkCannotRun();
    void megatronFlashAttnAndRecomputeActivations();
    void detect();
};

void TestLaunchConfig::roundTrip_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("target");
    for (const std::string& f : spec_files()) {
        for (LaunchTarget t : launch_targets()) {
            const std::string name =
                std::filesystem::path(f).stem().string() + "/" + std::string(to_string(t));
            QTest::newRow(name.c_str()) << QString::fromStdString(f) << static_cast<int>(t);
        }
    }
}

// Export then import: the same spec on every field the target expresses, and the same text
// when the imported spec is exported again. A target that cannot express the plan refuses it
// naming a spec field, with the target's title in the message.
void TestLaunchConfig::roundTrip() {
    QFETCH(QString, file);
    QFETCH(int, target);
    const LaunchTarget t = static_cast<LaunchTarget>(target);
    const PlanSpec spec = load_plan_spec(file.toStdString());
    std::string text;
    try {
        text = export_launch_config(spec, t);
    } catch (const SpecError& e) {
        QVERIFY2(!e.field().empty(), e.what());
        QVERIFY2(std::string(e.what()).find(launch_target_title(t)) != std::string::npos, e.what());
        return;
    }
    const bool model_beside = t == LaunchTarget::deepspeed || t == LaunchTarget::accelerate;
    const LaunchImport back =
        import_text(text, t, model_beside ? std::optional(spec.model) : std::nullopt);
    const PlanSpec& r = back.spec;
    QCOMPARE(without_comments(export_launch_config(r, t)), without_comments(text));

    QVERIFY(architecture_only(r.model) == architecture_only(spec.model));
    QCOMPARE(r.cluster.gpus, spec.cluster.gpus);
    QCOMPARE(r.training.zero, spec.training.zero);
    QCOMPARE(r.training.param_dtype, spec.training.param_dtype);
    QCOMPARE(r.training.grad_dtype, spec.training.grad_dtype);
    QVERIFY(r.training.master_dtype == spec.training.master_dtype);
    QCOMPARE(r.training.compute_dtype, spec.training.compute_dtype);
    QCOMPARE(r.training.offload, spec.training.offload);
    QCOMPARE(r.training.recompute, spec.training.recompute);
    QCOMPARE(r.training.tp, spec.training.tp);
    QCOMPARE(r.training.pp, spec.training.pp);
    QCOMPARE(r.training.context_parallel, spec.training.context_parallel);
    QCOMPARE(r.training.expert_parallel, spec.training.expert_parallel);
    if (t != LaunchTarget::accelerate) {
        QCOMPARE(r.data.micro_batch, spec.data.micro_batch);
    }
    if (t == LaunchTarget::megatron || t == LaunchTarget::nemo) {
        QCOMPARE(r.training.sequence_parallel, spec.training.sequence_parallel);
        QCOMPARE(r.training.interleave, spec.training.interleave);
        QCOMPARE(r.training.dropout, spec.training.dropout);
        QCOMPARE(r.data.seq_len, spec.data.seq_len);
        QCOMPARE(r.data.global_batch, spec.data.global_batch);
    }
    if (t == LaunchTarget::megatron) {
        QCOMPARE(r.training.flash_attention, spec.training.flash_attention);
        QCOMPARE(r.training.dp_overlap, spec.training.dp_overlap);
        QCOMPARE(r.training.optimizer, spec.training.optimizer);
        // --train-samples = whole steps of global batch sequences (Megatron-LM runs
        // samples // global batch iterations): the tokens within half a step.
        QVERIFY(std::abs(r.data.tokens - spec.data.tokens) <=
                static_cast<double>(r.data.global_batch * spec.data.seq_len) / 2.0);
    }
    QVERIFY(back.ignored.empty());
    QVERIFY(back.unknown.empty());
}

// The published Megatron-LM runs of docs/cases (Narayanan et al. 2021, Korthikanti et al. 2022,
// Llama 3 with ZeRO-1-like sharding, GPT-3 with tp x pp) must each export to Megatron-LM. The
// later cases (Megatron-Bridge and llm-foundry) either export or are refused naming a spec field
// these arguments cannot hold: ZeRO-3 (FSDP, Megatron-FSDP), an interleaved schedule whose layers
// do not divide pp x v (--num-layers-per-virtual-pipeline-stage is a whole number), fp32
// parameters under bf16 autocast (llm-foundry's amp_bf16; --bf16 keeps bf16 parameters).
void TestLaunchConfig::megatronExportsEveryCase() {
    int cases = 0;
    int older = 0;
    for (const std::string& f : spec_files()) {
        if (f.find("/docs/cases/") == std::string::npos) {
            continue;
        }
        ++cases;
        const PlanSpec spec = load_plan_spec(f);
        const std::string refused = refusal_field(spec, LaunchTarget::megatron);
        const std::string name = f.substr(f.rfind('/') + 1);
        const bool megatron_paper = name.starts_with("megatron-2021-") ||
                                    name.starts_with("korthikanti-2022-") ||
                                    name.starts_with("llama3-405b-") || name.starts_with("gpt3-");
        if (megatron_paper) {
            ++older;
            QVERIFY2(refused.empty(), f.c_str());
        } else {
            QVERIFY2(refused.empty() || refused.starts_with("training.") ||
                         refused.starts_with("model."),
                     (f + ": " + refused).c_str());
        }
    }
    QCOMPARE(older, 21);
    QVERIFY(cases > older);
    // The shipped examples that cannot: a ReLU network and parameter counts are no transformer;
    // ZeRO-3 is not Megatron-LM's distributed optimizer.
    const auto refused = [](const char* example) {
        return refusal_field(
            load_plan_spec(std::string(TALLY_SOURCE_DIR) + "/resources/examples/" + example),
            LaunchTarget::megatron);
    };
    QCOMPARE(refused("lecture-mlp.json"), std::string("model.kind"));
    QCOMPARE(refused("seed-70b-15t-1024-h100.json"), std::string("model.kind"));
    QCOMPARE(refused("deepseek-v3-h800.json"), std::string("training.zero"));
    QCOMPARE(refused("llama-3-70b-15t-1024-h100.json"), std::string());
    QCOMPARE(refused("llama-2-70b-2048-h100.json"), std::string());
}

void TestLaunchConfig::slidingWindowWhereTheFrameworkHasIt() {
    // The start plan's layout with Mistral 7B v0.1 (every layer windowed at 4096) and GPT-OSS
    // 120B (18 of 36 layers windowed at 128).
    PlanSpec spec = load_plan_spec(std::string(TALLY_SOURCE_DIR) +
                                   "/resources/examples/llama-3-70b-15t-1024-h100.json");
    spec.model = find_model_preset("mistral-7b")->model;
    // Megatron-LM core_v0.12.0's command line has no window.
    QCOMPARE(refusal_field(spec, LaunchTarget::megatron), std::string("model.sliding_window"));
    // NeMo's TransformerConfig.window_size windows every layer: (4096 - 1, 0).
    const std::string nemo = export_launch_config(spec, LaunchTarget::nemo);
    QVERIFY2(nemo.find("model.config.window_size='(4095,0)'") != std::string::npos, nemo.c_str());
    const PlanSpec back = import_text(nemo, LaunchTarget::nemo).spec;
    QCOMPARE(back.model.sliding_window, std::int64_t{4096});
    QCOMPARE(back.model.windowed_layers(), std::int64_t{32});
    // Transformer Engine's (-1, 0) is no window.
    std::string none = nemo;
    none.replace(none.find("'(4095,0)'"), 10, "'(-1,0)'");
    QCOMPARE(import_text(none, LaunchTarget::nemo).spec.model.windowed_layers(), std::int64_t{0});
    // Without context parallelism the exchange type is not written; with it, a windowed model
    // needs Transformer Engine's all-gather (its default ring refuses a window), which is what
    // the step-time model times: cp_comm_type=all_gather.
    QVERIFY2(nemo.find("cp_comm_type") == std::string::npos, nemo.c_str());
    PlanSpec split = spec;
    split.training.context_parallel = 2;
    split.cluster.gpus = spec.cluster.gpus;
    split.data.global_batch = spec.data.global_batch;
    const std::string gathered = export_launch_config(split, LaunchTarget::nemo);
    QVERIFY2(gathered.find("model.config.cp_comm_type=all_gather") != std::string::npos,
             gathered.c_str());
    QCOMPARE(import_text(gathered, LaunchTarget::nemo).spec.training.context_parallel,
             std::int64_t{2});
    // The all-to-all exchange is not what Tally times: refused, naming the setting.
    std::string a2a = gathered;
    a2a.replace(a2a.find("cp_comm_type=all_gather"), 23, "cp_comm_type=a2a");
    bool refused = false;
    try {
        import_text(a2a, LaunchTarget::nemo);
    } catch (const SpecError& e) {
        refused = e.field().find("model.config.cp_comm_type") != std::string::npos;
    }
    QVERIFY(refused);
    // The exchange must be the one the step is timed with: p2p with a window (which Transformer
    // Engine refuses), or all_gather with full attention, is refused naming the setting.
    auto refusal_of = [](const std::string& text) {
        try {
            import_text(text, LaunchTarget::nemo);
        } catch (const SpecError& e) {
            return e.field();
        }
        return std::string();
    };
    std::string ring = gathered;
    ring.replace(ring.find("cp_comm_type=all_gather"), 23, "cp_comm_type=p2p");
    QVERIFY(refusal_of(ring).starts_with("model.config.cp_comm_type"));
    std::string full = gathered;
    const std::string window_line = "model.config.window_size='(4095,0)' \\\n";
    full.erase(full.find(window_line), window_line.size());
    QVERIFY2(full.find("window_size") == std::string::npos, full.c_str());
    QVERIFY(refusal_of(full).starts_with("model.config.cp_comm_type"));
    // Megatron-LM's --cp-comm-type the same (its command line has no window: full attention).
    PlanSpec llama = load_plan_spec(std::string(TALLY_SOURCE_DIR) +
                                    "/resources/examples/llama-3-70b-15t-1024-h100.json");
    llama.training.context_parallel = 2;
    const std::string megatron = export_launch_config(llama, LaunchTarget::megatron);
    QVERIFY2(megatron.find("cp-comm-type") == std::string::npos, megatron.c_str());
    const std::string cp_line = "--context-parallel-size 2 \\\n";
    auto with_type = [&](const std::string& type) {
        std::string text = megatron;
        const std::size_t at = text.find(cp_line);
        text.insert(at + cp_line.size(), "    --cp-comm-type " + type + " \\\n");
        return text;
    };
    QCOMPARE(import_text(with_type("p2p"), LaunchTarget::megatron).spec.training.context_parallel,
             std::int64_t{2});
    try {
        import_text(with_type("all_gather"), LaunchTarget::megatron);
        QFAIL("all_gather with full attention was read");
    } catch (const SpecError& e) {
        QVERIFY2(e.field().starts_with("cp-comm-type"), e.field().c_str());
    }
    // A window on some layers only is beyond it.
    spec.model = find_model_preset("gpt-oss-120b")->model;
    QCOMPARE(refusal_field(spec, LaunchTarget::nemo), std::string("model.sliding_window_layers"));
    QCOMPARE(refusal_field(spec, LaunchTarget::megatron), std::string("model.sliding_window"));
}

void TestLaunchConfig::namesAreTheFrameworks_data() {
    QTest::addColumn<int>("target");
    for (LaunchTarget t : launch_targets()) {
        QTest::newRow(std::string(to_string(t)).c_str()) << static_cast<int>(t);
    }
}

// Every name a table writes, reads or ignores is one the framework defines (the lists in
// tests/data/launch/, taken from its sources); a prefix names a section it has.
void TestLaunchConfig::namesAreTheFrameworks() {
    QFETCH(int, target);
    const LaunchTarget t = static_cast<LaunchTarget>(target);
    const std::set<std::string> names = name_list(list_file(t));
    QVERIFY(names.size() > 20);
    const launch::Table& table = launch::table(t);
    for (const launch::Field& f : table.fields) {
        if (f.log_only) {
            continue;  // a dest of the printed block, checked in megatronLogBlock
        }
        QVERIFY2(names.count(std::string(f.key)) == 1, std::string(f.key).c_str());
    }
    for (std::string_view ig : table.ignored) {
        if (ig.back() == '.') {
            const std::string prefix(ig);
            const bool any = std::any_of(names.begin(), names.end(), [&](const std::string& n) {
                return n.rfind(prefix, 0) == 0 || n == prefix.substr(0, prefix.size() - 1);
            });
            QVERIFY2(any, prefix.c_str());
        } else {
            QVERIFY2(names.count(std::string(ig)) == 1, std::string(ig).c_str());
        }
    }
}

// The plan the window opens on (resources/examples/llama-3-70b-15t-1024-h100.json): Llama 3 70B
// on 1024 H100, tp 8 x pp 4, sequence parallel, ZeRO-1, 15T tokens of 8192, global batch 512.
void TestLaunchConfig::megatronArgumentsOfTheStartPlan() {
    const PlanSpec spec = load_plan_spec(std::string(TALLY_SOURCE_DIR) +
                                         "/resources/examples/llama-3-70b-15t-1024-h100.json");
    const std::string text = export_launch_config(spec, LaunchTarget::megatron);
    const auto has = [&](const char* arg) {
        return text.find(std::string(arg) + " \\\n") != std::string::npos ||
               text.find(std::string(arg) + "\n") != std::string::npos;
    };
    // The header names the release whose arguments these are (tests/data/launch/megatron.txt).
    QVERIFY(text.find("written by Tally (tally export --to megatron) for Megatron-LM "
                      "core_v0.12.0\n") != std::string::npos);
    // 1024 GPUs = 128 nodes of 8.
    QVERIFY(text.find("torchrun --nnodes 128 --nproc-per-node 8 pretrain_gpt.py") !=
            std::string::npos);
    // Llama 3 70B (Dubey et al. 2024, Table 3): 80 layers, 8192 wide, 64 heads, 8 KV heads,
    // FFN 28672, vocabulary 128256, SwiGLU, RMSNorm, RoPE, untied.
    QVERIFY(has("--num-layers 80"));
    QVERIFY(has("--hidden-size 8192"));
    QVERIFY(has("--num-attention-heads 64"));
    QVERIFY(has("--group-query-attention"));
    QVERIFY(has("--num-query-groups 8"));
    QVERIFY(has("--ffn-hidden-size 28672"));
    QVERIFY(has("--vocab-size 128256"));
    QVERIFY(has("--swiglu"));
    QVERIFY(has("--normalization RMSNorm"));
    QVERIFY(has("--disable-bias-linear"));
    QVERIFY(has("--untie-embeddings-and-output-weights"));
    QVERIFY(has("--position-embedding-type rope"));
    QVERIFY(has("--max-position-embeddings 8192"));
    // Llama 3's RoPE base, 500,000 (Dubey et al. 2024, Table 3): left out, Megatron-LM trains
    // at its default of 10,000.
    QVERIFY(has("--rotary-base 500000"));
    QVERIFY(has("--tensor-model-parallel-size 8"));
    QVERIFY(has("--pipeline-model-parallel-size 4"));
    QVERIFY(has("--sequence-parallel"));
    QVERIFY(has("--use-distributed-optimizer"));
    QVERIFY(has("--seq-length 8192"));
    QVERIFY(has("--micro-batch-size 1"));
    QVERIFY(has("--global-batch-size 512"));
    // 15e12 tokens / (512 x 8192 = 4,194,304 a step) = 3,576,278.69 steps, rounded to
    // 3,576,279, of 512 samples: 1,831,054,848 (Megatron-LM runs samples // 512 iterations, the
    // steps NeMo's max_steps gives).
    QVERIFY(has("--train-samples 1831054848"));
    QVERIFY(has("--bf16"));
    QVERIFY(text.find("--fp16") == std::string::npos);
    QVERIFY(text.find("--recompute-granularity") == std::string::npos);
}

// A GB200 NVL72 rack joins 72 GPUs by NVLink, but each of its 18 compute trays is one host of 4
// GPUs (DGX GB200 user guide; Megatron-Bridge v0.4.2 scripts/performance/argument_parser.py,
// NUM_GPUS_PER_NODE_MAP: gb200 4): torchrun starts 4 processes a node, on 64 / 4 = 16 nodes, even
// where the spec states the 72-GPU NVLink domain. An H100 board stays 8 a node: 64 / 8 = 8.
void TestLaunchConfig::launcherNodesAreHosts() {
    PlanSpec spec = load_plan_spec(std::string(TALLY_SOURCE_DIR) +
                                   "/resources/examples/llama-3-70b-15t-1024-h100.json");
    spec.cluster.gpus = 64;
    spec.data.global_batch = 64;
    spec.cluster.gpu = "gb200";
    spec.cluster.gpus_per_node = 72;
    const std::string megatron = export_launch_config(spec, LaunchTarget::megatron);
    QVERIFY2(megatron.find("torchrun --nnodes 16 --nproc-per-node 4 pretrain_gpt.py") !=
                 std::string::npos,
             megatron.substr(0, 400).c_str());
    const std::string nemo = export_launch_config(spec, LaunchTarget::nemo);
    QVERIFY2(nemo.find("trainer.num_nodes=16") != std::string::npos, nemo.c_str());
    QVERIFY2(nemo.find("trainer.devices=4") != std::string::npos, nemo.c_str());

    spec.cluster.gpu = "h100-sxm";
    spec.cluster.gpus_per_node = 0;
    QVERIFY(export_launch_config(spec, LaunchTarget::megatron)
                .find("torchrun --nnodes 8 --nproc-per-node 8 pretrain_gpt.py") !=
            std::string::npos);
    // 12 GPUs are not whole hosts of 8 (nor 6 GB200 of 4): written as one node, and said so.
    const auto says_hosts = [](const PlanSpec& s) {
        const std::vector<Text> notes = launch_export_notes(s, LaunchTarget::megatron);
        return std::any_of(notes.begin(), notes.end(), [](const Text& n) {
            return n.english().find("are not whole hosts of") != std::string::npos;
        });
    };
    QVERIFY(!says_hosts(spec));
    PlanSpec twelve = spec;
    twelve.cluster.gpus = 12;
    twelve.training.tp = 4;
    twelve.training.pp = 1;
    twelve.training.sequence_parallel = true;
    twelve.data.global_batch = 12;
    QVERIFY(says_hosts(twelve));
}

void TestLaunchConfig::megatronRefusesZero2() {
    PlanSpec spec = load_plan_spec(std::string(TALLY_SOURCE_DIR) +
                                   "/resources/examples/llama-3-70b-15t-1024-h100.json");
    spec.training.zero = 2;
    try {
        (void)export_launch_config(spec, LaunchTarget::megatron);
        QFAIL("ZeRO-2 exported to Megatron-LM");
    } catch (const SpecError& e) {
        QCOMPARE(e.field(), std::string("training.zero"));
        QCOMPARE(e.error().value, std::string("2"));
        QVERIFY(std::string(e.what()).find("--use-distributed-optimizer") != std::string::npos);
    }
    spec.training.zero = 1;
    spec.training.recompute = Recompute::sqrt;
    QCOMPARE(refusal_field(spec, LaunchTarget::megatron), std::string("training.recompute"));
    // Megatron-LM and NeMo run FusedAdam: a plan that asks for foreach kernels is refused by
    // that field; one that takes its engine's is written as they run it.
    spec.training.recompute = Recompute::none;
    spec.training.optimizer_impl = OptimizerImpl::foreach;
    QCOMPARE(refusal_field(spec, LaunchTarget::megatron), std::string("training.optimizer_impl"));
    QCOMPARE(refusal_field(spec, LaunchTarget::nemo), std::string("training.optimizer_impl"));
    spec.training.optimizer_impl = OptimizerImpl::engine;
    spec.training.engine = Engine::fsdp;
    QVERIFY(refusal_field(spec, LaunchTarget::megatron) != "training.optimizer_impl");
}

// torchtitan/models/llama3/__init__.py (v0.2.2): the FFN width from dim, ffn_dim_multiplier and
// multiple_of; the results are Llama 3's published widths (Dubey et al. 2024, Table 3: 14336,
// 28672, 53248). 8B: int(2*16384/3) = 10922; int(1.3*10922) = 14198; up to 1024s: 14336.
// 70B: 21845 -> 28398 -> up to 4096s: 28672. 405B: 43690 -> int(1.2*43690) = 52428 -> 53248.
void TestLaunchConfig::torchtitanFlavours() {
    const auto ffn = [](const char* f) { return torchtitan_flavour("llama3", f)->ffn_hidden; };
    QCOMPARE(ffn("8B"), std::int64_t{14336});
    QCOMPARE(ffn("70B"), std::int64_t{28672});
    QCOMPARE(ffn("405B"), std::int64_t{53248});
    QCOMPARE(torchtitan_flavour("llama3", "405B")->layers, std::int64_t{126});
    QVERIFY(!torchtitan_flavour("llama3", "1T"));
    QVERIFY(!torchtitan_flavour("deepseek_v3", "671B"));
    // Every llama3 flavour runs RoPE at base 500000 (torchtitan/models/llama3/__init__.py): a
    // Llama 3 8B stated at another base is not one of them, refused by the field; the preset's
    // own base and an unstated one are written.
    QCOMPARE(torchtitan_flavour("llama3", "8B")->rope_theta, 500000.0);
    PlanSpec spec = eight_b(R"("zero": 3)");
    QCOMPARE(spec.model.rope_theta, 500000.0);
    QCOMPARE(refusal_field(spec, LaunchTarget::torchtitan), std::string());
    spec.model.rope_theta = 10000.0;
    QCOMPARE(refusal_field(spec, LaunchTarget::torchtitan), std::string("model.rope_theta"));
    // Megatron-LM and NeMo (ZeRO-1 there) write any whole base, and refuse a fractional one.
    PlanSpec megatron = spec;
    megatron.training.zero = 1;
    QVERIFY(
        export_launch_config(megatron, LaunchTarget::nemo).find("model.config.rotary_base=10000") !=
        std::string::npos);
    megatron.model.rope_theta = 10000.5;
    QCOMPARE(refusal_field(megatron, LaunchTarget::megatron), std::string("model.rope_theta"));
    megatron.model.rope_theta = 0.0;
    QVERIFY(export_launch_config(megatron, LaunchTarget::megatron).find("--rotary-base") ==
            std::string::npos);
    spec.model.rope_theta = 0.0;
    QCOMPARE(refusal_field(spec, LaunchTarget::torchtitan), std::string());
}

// A torchtitan job as its llama3_70b.toml ships (v0.2.2: local batch 8, seq 8192, tp 8,
// shard -1, full checkpointing), launched on 64 GPUs: dp = 64 / 8 = 8 FSDP ranks (ZeRO-3), a
// global batch of -1 = 8 x 8 = 64 sequences, 1000 steps x 64 x 8192 = 524288000 tokens.
void TestLaunchConfig::torchtitanImport() {
    const std::string toml = R"([job]
dump_folder = "./outputs"
description = "Llama 3 70B training"

[model]
name = "llama3"
flavor = "70B"
hf_assets_path = "./assets/hf/Llama-3.1-70B"

[optimizer]
name = "AdamW"
lr = 1.5e-4

[training]
local_batch_size = 8
seq_len = 8192
max_norm = 1.0
steps = 1000
dataset = "c4"

[parallelism]
data_parallel_replicate_degree = 1
data_parallel_shard_degree = -1
tensor_parallel_degree = 8
pipeline_parallel_degree = 1
context_parallel_degree = 1

[activation_checkpoint]
mode = "full"

[compile]
enable = false
)";
    LaunchImportOptions options;
    options.gpus = 64;
    const LaunchImport r = import_launch_config(toml, "llama3_70b.toml", options);
    QCOMPARE(r.target, LaunchTarget::torchtitan);
    QCOMPARE(r.spec.cluster.gpus, std::int64_t{64});
    QCOMPARE(r.spec.training.tp, std::int64_t{8});
    QCOMPARE(r.spec.training.zero, 3);
    QCOMPARE(r.spec.training.recompute, Recompute::full);
    QCOMPARE(r.spec.training.engine, Engine::fsdp);
    QCOMPARE(r.spec.model.layers, std::int64_t{80});
    QCOMPARE(r.spec.data.micro_batch, std::int64_t{8});
    QCOMPARE(r.spec.data.global_batch, std::int64_t{0});
    QCOMPARE(r.spec.data.tokens, 524288000.0);
    // optimizer.implementation is unset: torchtitan's default, "fused", one pass per update.
    QCOMPARE(r.spec.training.optimizer_impl, OptimizerImpl::fused);
    // "foreach" and "for-loop" make a pass per operation; anything else names the setting.
    for (const char* impl : {"foreach", "for-loop"}) {
        std::string with = toml;
        with.replace(with.find("lr = 1.5e-4"), 11,
                     std::string("lr = 1.5e-4\nimplementation = \"") + impl + "\"");
        QCOMPARE(
            import_launch_config(with, "llama3_70b.toml", options).spec.training.optimizer_impl,
            OptimizerImpl::foreach);
    }
    std::string bad = toml;
    bad.replace(bad.find("lr = 1.5e-4"), 11, "lr = 1.5e-4\nimplementation = \"fast\"");
    try {
        import_launch_config(bad, "llama3_70b.toml", options);
        QFAIL("an unknown optimizer.implementation was read");
    } catch (const SpecError& e) {
        QVERIFY2(std::string(e.what()).find("optimizer.implementation") != std::string::npos,
                 e.what());
    }
    // Exported, a plan on the eager engine says foreach, its engine's implementation.
    PlanSpec eager = r.spec;
    eager.training.optimizer_impl = OptimizerImpl::engine;
    const std::string out = export_launch_config(eager, LaunchTarget::torchtitan);
    QVERIFY2(out.find("implementation = 'foreach'") != std::string::npos, out.c_str());
    // Without --gpus the world size is a guess, said in the description.
    const LaunchImport guessed = import_launch_config(toml, "llama3_70b.toml", {});
    QCOMPARE(guessed.spec.cluster.gpus, std::int64_t{8});
    QVERIFY(guessed.spec.description.find("cluster.gpus = 8") != std::string::npos);
}

// torchtitan runs FSDP whenever cp > 1, over the shard x cp ranks (parallel_dims.py:
// fsdp_enabled = dp_shard_enabled or cp_enabled): the 70B job at cp 8 on 64 GPUs (tp 8, so shard
// 64 / (8 x 8) = 1) shards over its 8 cp ranks, ZeRO-3, not replicated; with reshard "never",
// ZeRO-2. A replicate degree above 1 as well is hybrid sharding, refused by name; and a plan
// that replicates with cp > 1 is not written, since the file would run sharded.
void TestLaunchConfig::torchtitanContextParallelShards() {
    std::string toml = R"([model]
name = "llama3"
flavor = "70B"

[training]
local_batch_size = 1
seq_len = 131072
steps = 10

[parallelism]
data_parallel_replicate_degree = 1
data_parallel_shard_degree = -1
tensor_parallel_degree = 8
context_parallel_degree = 8
)";
    LaunchImportOptions options;
    options.gpus = 64;
    const LaunchImport r = import_launch_config(toml, "cp.toml", options);
    QCOMPARE(r.spec.training.context_parallel, std::int64_t{8});
    QCOMPARE(r.spec.cluster.gpus, std::int64_t{64});
    QCOMPARE(r.spec.training.zero, 3);
    // The shard degree written out: 1, as torchtitan reads it.
    std::string explicit_one = toml;
    explicit_one.replace(explicit_one.find("data_parallel_shard_degree = -1"), 31,
                         "data_parallel_shard_degree = 1");
    QCOMPARE(import_launch_config(explicit_one, "cp.toml", {}).spec.training.zero, 3);
    std::string never = explicit_one + "fsdp_reshard_after_forward = \"never\"\n";
    QCOMPARE(import_launch_config(never, "cp.toml", {}).spec.training.zero, 2);
    std::string hybrid = explicit_one;
    hybrid.replace(hybrid.find("data_parallel_replicate_degree = 1"), 34,
                   "data_parallel_replicate_degree = 2");
    try {
        import_launch_config(hybrid, "cp.toml", {});
        QFAIL("hybrid sharding over the cp ranks was read as a plan");
    } catch (const SpecError& e) {
        QVERIFY2(std::string(e.what()).find("data_parallel_replicate_degree") != std::string::npos,
                 e.what());
    }
    PlanSpec replicated = r.spec;
    replicated.training.zero = 0;
    try {
        export_launch_config(replicated, LaunchTarget::torchtitan);
        QFAIL("a replicated plan at cp 8 was written as a torchtitan file");
    } catch (const SpecError& e) {
        QVERIFY2(std::string(e.what()).find("training.zero") != std::string::npos, e.what());
    }
    // Exported and read back, the ZeRO-3 plan is the same plan.
    const std::string out = export_launch_config(r.spec, LaunchTarget::torchtitan);
    QCOMPARE(import_launch_config(out, "cp.toml", {}).spec.training.zero, 3);
}

// --rampup-batch-size START INCREMENT SAMPLES grows the global batch over the first SAMPLES
// samples (core_v0.12.0 num_microbatches_calculator.py). A plan has one global batch: the import
// keeps --global-batch-size, says so among its assumptions, and refuses the ramps Megatron-LM
// refuses.
void TestLaunchConfig::megatronBatchRampup() {
    const std::string args =
        "--num-layers 32 --hidden-size 4096 --num-attention-heads 32 "
        "--ffn-hidden-size 16384 --vocab-size 32000 --max-position-embeddings 4096 "
        "--seq-length 4096 --micro-batch-size 1 --global-batch-size 512\n";
    const LaunchImport r =
        import_text(args + "--rampup-batch-size 16 16 5859375\n", LaunchTarget::megatron);
    QCOMPARE(r.spec.data.global_batch, std::int64_t{512});
    QVERIFY(std::any_of(r.guesses.begin(), r.guesses.end(), [](const Text& g) {
        return g.english().find("ramps the batch from 16 by 16 over its first 5859375 samples") !=
               std::string::npos;
    }));
    // (512 - 100) = 412 is not a whole number of increments of 16.
    QCOMPARE(import_error(args + "--rampup-batch-size 100 16 1000\n", LaunchTarget::megatron),
             QStringLiteral("rampup-batch-size (line 2)"));
    // A start above the global batch, and two numbers where three are needed.
    QCOMPARE(import_error(args + "--rampup-batch-size 1024 16 1000\n", LaunchTarget::megatron),
             QStringLiteral("rampup-batch-size (line 2)"));
    QCOMPARE(import_error(args + "--rampup-batch-size 16 16\n", LaunchTarget::megatron),
             QStringLiteral("rampup-batch-size (line 2)"));
    // A printed argument block lists the ramp as a list when set, as None when not.
    const auto block = [](const std::string& ramp) {
        return "------------------------ arguments ------------------------\n"
               "  ffn_hidden_size ................................. 16384\n"
               "  global_batch_size ............................... 512\n"
               "  hidden_size ..................................... 4096\n"
               "  max_position_embeddings ......................... 4096\n"
               "  micro_batch_size ................................ 1\n"
               "  num_attention_heads ............................. 32\n"
               "  num_layers ...................................... 32\n"
               "  rampup_batch_size ............................... " +
               ramp +
               "\n"
               "  seq_length ...................................... 4096\n"
               "  vocab_size ...................................... 32000\n"
               "  world_size ...................................... 8\n"
               "-------------------- end of arguments ---------------------\n";
    };
    const LaunchImport printed =
        import_text(block("['32', '32', '100000']"), LaunchTarget::megatron);
    QVERIFY(std::any_of(printed.guesses.begin(), printed.guesses.end(), [](const Text& g) {
        return g.english().find("from 32 by 32 over its first 100000") != std::string::npos;
    }));
    const LaunchImport unset = import_text(block("None"), LaunchTarget::megatron);
    QVERIFY(std::none_of(unset.guesses.begin(), unset.guesses.end(), [](const Text& g) {
        return g.english().find("ramps the batch") != std::string::npos;
    }));
}

// Megatron-LM prints its arguments at start (arguments.py, _print_args): "  name ....... value".
void TestLaunchConfig::megatronLogBlock() {
    const std::string log =
        R"(using world size: 16, data-parallel size: 2, tensor-model-parallel size: 4
------------------------ arguments ------------------------
  accumulate_allreduce_grads_in_fp32 .............. True
  add_bias_linear ................................. False
  add_qkv_bias .................................... False
  attention_backend ............................... AttnBackend.auto
  attention_dropout ............................... 0.0
  bf16 ............................................ True
  ffn_hidden_size ................................. 14336
  fp16 ............................................ False
  fp8 ............................................. None
  global_batch_size ............................... 256
  group_query_attention ........................... True
  hidden_dropout .................................. 0.0
  hidden_size ..................................... 4096
  lr .............................................. 0.0003
  max_position_embeddings ......................... 8192
  micro_batch_size ................................ 2
  normalization ................................... RMSNorm
  num_attention_heads ............................. 32
  num_experts ..................................... None
  num_layers ...................................... 32
  num_query_groups ................................ 8
  pipeline_model_parallel_size .................... 2
  position_embedding_type ......................... rope
  recompute_granularity ........................... selective
  seq_length ...................................... 8192
  sequence_parallel ............................... True
  swiglu .......................................... True
  tensor_model_parallel_size ...................... 4
  train_samples ................................... 1000000
  untie_embeddings_and_output_weights ............. True
  use_distributed_optimizer ....................... True
  vocab_size ...................................... 128256
  world_size ...................................... 16
-------------------- end of arguments ---------------------
)";
    const LaunchImport r = import_text(log, LaunchTarget::megatron);
    const PlanSpec& s = r.spec;
    QCOMPARE(s.cluster.gpus, std::int64_t{16});
    QCOMPARE(s.model.layers, std::int64_t{32});
    QCOMPARE(s.model.kv_heads, std::int64_t{8});
    QCOMPARE(s.model.ffn, FfnKind::swiglu);
    QCOMPARE(s.model.norm, NormKind::rmsnorm);
    QCOMPARE(s.model.bias, BiasKind::none);  // add_bias_linear False (--disable-bias-linear)
    QCOMPARE(s.model.tied_embeddings, false);
    QCOMPARE(s.training.tp, std::int64_t{4});
    QCOMPARE(s.training.pp, std::int64_t{2});
    QCOMPARE(s.training.zero, 1);
    QCOMPARE(s.training.recompute, Recompute::selective);
    QCOMPARE(s.training.sequence_parallel, true);
    QCOMPARE(s.training.dropout, false);
    QCOMPARE(s.training.param_dtype, DType::bf16);
    QCOMPARE(s.data.global_batch, std::int64_t{256});
    QCOMPARE(s.data.micro_batch, std::int64_t{2});
    // 1e6 samples x 8192 tokens.
    QCOMPARE(s.data.tokens, 8192e6);
    // lr and accumulate_allreduce_grads_in_fp32 are read and ignored, not errors.
    QVERIFY(std::any_of(r.ignored.begin(), r.ignored.end(),
                        [](const LaunchSetting& x) { return x.key == "lr" && x.line == 16; }));
}

// A printed argument block lists every argument, the ones a run leaves at their defaults too
// (core_v0.12.0 arguments.py): multi-latent attention's ranks beside multi_latent_attention False,
// cp_comm_type as the list its nargs='+' makes. A Qwen3-30B-A3B run's block reads as that model:
// no MLA, its QK-norm, the ring over cp 2, the all-to-all dispatcher it names.
void TestLaunchConfig::megatronLogBlockOfAnMoeRun() {
    const std::string log = R"(------------------------ arguments ------------------------
  add_bias_linear ................................. False
  context_parallel_size ........................... 2
  cp_comm_type .................................... ['p2p']
  expert_model_parallel_size ...................... 8
  ffn_hidden_size ................................. 6144
  global_batch_size ............................... 512
  group_query_attention ........................... True
  hidden_size ..................................... 2048
  kv_channels ..................................... 128
  kv_lora_rank .................................... 32
  max_position_embeddings ......................... 40960
  micro_batch_size ................................ 1
  moe_ffn_hidden_size ............................. 768
  moe_router_topk ................................. 8
  moe_token_dispatcher_type ....................... alltoall
  multi_latent_attention .......................... False
  normalization ................................... RMSNorm
  num_attention_heads ............................. 32
  num_experts ..................................... 128
  num_layers ...................................... 48
  num_query_groups ................................ 4
  position_embedding_type ......................... rope
  q_lora_rank ..................................... None
  qk_head_dim ..................................... 128
  qk_layernorm .................................... True
  qk_pos_emb_head_dim ............................. 64
  seq_length ...................................... 4096
  swiglu .......................................... True
  tensor_model_parallel_size ...................... 1
  train_samples ................................... 5120000
  untie_embeddings_and_output_weights ............. True
  use_distributed_optimizer ....................... True
  bf16 ............................................ True
  v_head_dim ...................................... 128
  vocab_size ...................................... 151936
  world_size ...................................... 16
-------------------- end of arguments ---------------------
)";
    const LaunchImport r = import_text(log, LaunchTarget::megatron);
    QVERIFY(!r.spec.model.mla.enabled());
    // Its ranks are listed among the settings that change nothing, not as read.
    QVERIFY(std::none_of(r.read.begin(), r.read.end(), [](const LaunchSetting& l) {
        return l.spec_field.rfind("model.mla", 0) == 0 && l.key != "multi_latent_attention";
    }));
    QVERIFY(std::any_of(r.ignored.begin(), r.ignored.end(),
                        [](const LaunchSetting& l) { return l.key == "kv_lora_rank"; }));
    QVERIFY(r.spec.model.qk_norm);
    QCOMPARE(r.spec.training.context_parallel, std::int64_t{2});
    QCOMPARE(r.spec.training.expert_parallel, std::int64_t{8});
    QVERIFY(r.spec.training.moe_dispatcher == MoeDispatcher::alltoall);
    // The dispatcher is named, so nothing is said of Megatron-Core's default.
    QVERIFY(std::none_of(r.guesses.begin(), r.guesses.end(), [](const Text& t) {
        return t.english().find("dispatcher") != std::string::npos;
    }));
    // With rotary positions max_position_embeddings is the context the model is built for,
    // written back as given.
    QCOMPARE(r.spec.model.context_length, std::int64_t{40960});
    QVERIFY(std::none_of(r.guesses.begin(), r.guesses.end(), [](const Text& t) {
        return t.english().rfind("model.context_length", 0) == 0;
    }));
    QVERIFY(export_launch_config(r.spec, LaunchTarget::megatron)
                .find("--max-position-embeddings 40960") != std::string::npos);
    // Attention Q 2048·4096 + K, V 2·2048·512 + O 4096·2048 = 18,874,368, QK-norm 256:
    // 18,874,624 a layer, as Qwen3-30B-A3B's config.json gives it.
    QCOMPARE(count_params(r.spec.model).per_layer_attention, 18874624.0);
    // One type a layer, all the same, is that type; two differing are not one Tally times.
    std::string mixed = log;
    mixed.replace(mixed.find("['p2p']"), 7, "['p2p', 'a2a']");
    QCOMPARE(import_error(mixed, LaunchTarget::megatron), QStringLiteral("cp_comm_type (line 4)"));
}

// Megatron-LM derives --ffn-hidden-size when a run leaves it out (core_v0.12.0 arguments.py):
// 4h = 16384 at h 4096; with --swiglu int(4 x 4096 x 2/3 / 64) x 64 = int(170.67) x 64 = 10880.
// The experts then take that width too (moe_ffn_hidden_size = ffn_hidden_size).
void TestLaunchConfig::megatronDerivesTheMlpWidth() {
    const std::string base =
        "--num-layers 4 --hidden-size 4096 --num-attention-heads 32 --vocab-size 32000 "
        "--max-position-embeddings 4096 --seq-length 4096 --bf16 ";
    const LaunchImport gelu = import_text(base, LaunchTarget::megatron);
    QCOMPARE(gelu.spec.model.ffn_hidden, std::int64_t{16384});
    QVERIFY(std::any_of(gelu.guesses.begin(), gelu.guesses.end(), [](const Text& t) {
        return t.english().rfind("model.ffn_hidden = 16384", 0) == 0;
    }));
    const LaunchImport swiglu = import_text(base + "--swiglu", LaunchTarget::megatron);
    QCOMPARE(swiglu.spec.model.ffn_hidden, std::int64_t{10880});
    const LaunchImport moe =
        import_text(base + "--swiglu --num-experts 8 --moe-router-topk 2", LaunchTarget::megatron);
    QCOMPARE(moe.spec.model.effective_expert_ffn(), std::int64_t{10880});
    // NeMo's recipes state the width: a file without it still needs it or a config.json.
    QCOMPARE(import_error("model.config.num_layers=4\nmodel.config.hidden_size=4096\n",
                          LaunchTarget::nemo)
                 .isEmpty(),
             false);
}

// Megatron-Core refuses --recompute-granularity full without --recompute-method (core_v0.12.0
// transformer_config.py, __post_init__): such a command line is refused by the granularity's
// line, and with a method it reads as full recomputation.
void TestLaunchConfig::megatronFullRecomputeNeedsAMethod() {
    const std::string base =
        "--num-layers 4 --hidden-size 1024 --num-attention-heads 8 --ffn-hidden-size 4096 "
        "--vocab-size 32000 --max-position-embeddings 4096 --seq-length 4096 --bf16\n";
    QCOMPARE(import_error(base + "--recompute-granularity full\n", LaunchTarget::megatron),
             QStringLiteral("recompute-granularity (line 2)"));
    const LaunchImport uniform = import_text(
        base + "--recompute-granularity full --recompute-method uniform --recompute-num-layers 1",
        LaunchTarget::megatron);
    QVERIFY(uniform.spec.training.recompute == Recompute::full);
}

// Megatron-LM's example scripts (examples/gpt3/train_gpt3_175b_distributed.sh) keep their
// arguments in bash arrays passed as ${NAME[@]}, and sizes in variables: read as the command they
// expand to, each argument on its own line. 16 nodes of 8 = 128 GPUs; a variable the script does
// not set ($1) stays as written, on a setting Tally ignores.
void TestLaunchConfig::megatronScriptWithBashArrays() {
    const std::string script = R"(#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
GPUS_PER_NODE=8
NUM_NODES=16
CHECKPOINT_PATH=$1
DISTRIBUTED_ARGS=(
    --nproc_per_node $GPUS_PER_NODE
    --nnodes ${NUM_NODES}
)
GPT_MODEL_ARGS=(
    --num-layers 96 --hidden-size 12288 --num-attention-heads 96
    --vocab-size 51200 --seq-length 2048 --max-position-embeddings 2048
)
TRAINING_ARGS=(--micro-batch-size 1 --global-batch-size 1536 --train-iters 500000 --bf16)
MODEL_PARALLEL_ARGS=(
	--tensor-model-parallel-size 8
	--pipeline-model-parallel-size 16
)
torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py \
    ${GPT_MODEL_ARGS[@]} \
    "${TRAINING_ARGS[@]}" \
    ${MODEL_PARALLEL_ARGS[@]} \
    --save $CHECKPOINT_PATH
)";
    const LaunchImport r = import_text(script, LaunchTarget::megatron);
    QCOMPARE(r.spec.cluster.gpus, std::int64_t{128});
    QCOMPARE(r.spec.model.layers, std::int64_t{96});
    QCOMPARE(r.spec.training.tp, std::int64_t{8});
    QCOMPARE(r.spec.training.pp, std::int64_t{16});
    QCOMPARE(r.spec.data.global_batch, std::int64_t{1536});
    // Each argument keeps the line it is written on: --num-layers on line 11.
    QVERIFY(std::any_of(r.read.begin(), r.read.end(), [](const LaunchSetting& l) {
        return l.key == "num-layers" && l.line == 11;
    }));
    QVERIFY(std::any_of(r.ignored.begin(), r.ignored.end(),
                        [](const LaunchSetting& l) { return l.key == "save" && l.value == "$1"; }));
}

// 1000 tokens are less than one step of 512 x 8192: the run takes one whole step (the plan warns
// so), and a launch file says one, never zero, which every framework refuses: 512 samples for
// Megatron-LM, max_steps 1 for NeMo and torchtitan. Read back, Tally's own line keeps the 1000.
void TestLaunchConfig::lessThanOneStepRunsOneStep() {
    PlanSpec spec = eight_b(R"("zero": 1)");
    spec.data.tokens = 1000;
    const std::string megatron = export_launch_config(spec, LaunchTarget::megatron);
    QVERIFY2(megatron.find("--train-samples 512") != std::string::npos, megatron.c_str());
    QVERIFY(export_launch_config(spec, LaunchTarget::nemo).find("trainer.max_steps=1") !=
            std::string::npos);
    QCOMPARE(import_text(megatron, LaunchTarget::megatron).spec.data.tokens, 1000.0);
    spec.training.zero = 3;
    QVERIFY(export_launch_config(spec, LaunchTarget::torchtitan).find("steps = 1\n") !=
            std::string::npos);
}

// A DeepSpeed JSON with the model from an HF config: train_batch_size 64 = micro 2 x accumulation
// 4 x 8 GPUs (config-json.md: train_batch_size = micro x accumulation x GPUs).
void TestLaunchConfig::deepspeedWithConfigJson() {
    const std::string ds = R"({
  "train_batch_size": 64,
  "train_micro_batch_size_per_gpu": 2,
  "gradient_accumulation_steps": 4,
  "bf16": {"enabled": true},
  "zero_optimization": {"stage": 2, "overlap_comm": true, "reduce_bucket_size": 5e8,
                        "offload_optimizer": {"device": "cpu", "pin_memory": true}},
  "gradient_clipping": 1.0
})";
    ModelSpec model = *torchtitan_flavour("llama3", "8B");
    const LaunchImport r = import_text(ds, LaunchTarget::deepspeed, model);
    QCOMPARE(r.spec.cluster.gpus, std::int64_t{8});
    QCOMPARE(r.spec.training.zero, 2);
    QCOMPARE(r.spec.training.offload, Offload::optimizer);
    QCOMPARE(r.spec.training.engine, Engine::deepspeed);
    QCOMPARE(r.spec.data.global_batch, std::int64_t{64});
    QCOMPARE(r.spec.model.layers, std::int64_t{32});
    QCOMPARE(r.ignored.size(), std::size_t{3});  // reduce_bucket_size, pin_memory, clipping
    // No optimizer block: DeepSpeed's FusedAdam; torch_adam true is torch's foreach AdamW.
    QCOMPARE(r.spec.training.optimizer_impl, OptimizerImpl::fused);
    std::string torch_adam = ds;
    torch_adam.replace(torch_adam.find("\"gradient_clipping\""), 0,
                       "\"optimizer\": {\"type\": \"AdamW\", \"params\": {\"lr\": 1e-4, "
                       "\"torch_adam\": true}},\n  ");
    const LaunchImport t = import_text(torch_adam, LaunchTarget::deepspeed, model);
    QCOMPARE(t.spec.training.optimizer_impl, OptimizerImpl::foreach);
    QVERIFY(export_launch_config(t.spec, LaunchTarget::deepspeed).find("\"torch_adam\": true") !=
            std::string::npos);
    // Full recomputation is a section that configures deepspeed.checkpointing, which the
    // training script must call: the export says so; without recomputation it does not.
    const auto says_script = [](const PlanSpec& spec) {
        const std::vector<Text> notes = launch_export_notes(spec, LaunchTarget::deepspeed);
        return std::any_of(notes.begin(), notes.end(), [](const Text& n) {
            return n.english().find("gradient_checkpointing_enable()") != std::string::npos;
        });
    };
    PlanSpec recomputed = r.spec;
    recomputed.training.recompute = Recompute::full;
    QVERIFY(says_script(recomputed));
    QVERIFY(!says_script(r.spec));
    // Without a model: the DeepSpeed config does not describe one.
    QString message;
    QCOMPARE(import_error(ds, LaunchTarget::deepspeed, &message), QString("model"));
    QCOMPARE(message, QString("model: got nothing; the model's Hugging Face config.json beside "
                              "the file (--hf-config): DeepSpeed JSON does not describe the "
                              "model"));
}

void TestLaunchConfig::accelerateYaml() {
    const std::string yaml = R"(compute_environment: LOCAL_MACHINE
distributed_type: FSDP
fsdp_config:
  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
  fsdp_sharding_strategy: SHARD_GRAD_OP
  fsdp_offload_params: false
  fsdp_activation_checkpointing: true
  fsdp_state_dict_type: SHARDED_STATE_DICT
machine_rank: 0
mixed_precision: bf16
num_machines: 2
num_processes: 16
)";
    const LaunchImport r =
        import_text(yaml, LaunchTarget::accelerate, *torchtitan_flavour("llama3", "8B"));
    QCOMPARE(r.spec.cluster.gpus, std::int64_t{16});
    QCOMPARE(r.spec.training.zero, 2);  // SHARD_GRAD_OP: gradients and optimizer state sharded
    QCOMPARE(r.spec.training.recompute, Recompute::full);
    QCOMPARE(r.spec.training.engine, Engine::fsdp);
    QString message;
    QCOMPARE(import_error(yaml, LaunchTarget::accelerate, &message), QString("model"));
    QVERIFY2(message.contains("accelerate FSDP YAML does not describe the model"),
             qPrintable(message));
}

void TestLaunchConfig::badInput_data() {
    QTest::addColumn<int>("target");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("field");
    const std::string args =
        "--num-layers 32 --hidden-size 4096 --num-attention-heads 32 "
        "--ffn-hidden-size 16384 --vocab-size 32000 "
        "--max-position-embeddings 4096 --seq-length 4096 ";
    const auto row = [](const char* name, LaunchTarget t, const std::string& text,
                        const char* field) {
        QTest::newRow(name) << static_cast<int>(t) << QString::fromStdString(text) << field;
    };
    // toml++ reports an unterminated string where the line ends.
    row("truncated TOML", LaunchTarget::torchtitan, "[model]\nname = \"llama3\n",
        "line 2, column 15");
    row("unknown flag", LaunchTarget::megatron, args + "\n--tensor-parallel 8",
        "tensor-parallel (line 2)");
    row("non-integer size", LaunchTarget::megatron, args + "--tensor-model-parallel-size eight",
        "tensor-model-parallel-size (line 1)");
    // 8-way tensor parallelism on 12 GPUs: check() names the GPU count tp x pp x cp must divide.
    row("layout does not divide", LaunchTarget::megatron,
        "torchrun --nnodes 1 --nproc-per-node 12 pretrain_gpt.py " + args +
            "--tensor-model-parallel-size 8",
        "torchrun.nnodes, torchrun.nproc-per-node (line 1, read as cluster.gpus)");
    // 3-way tensor parallelism of 32 heads: check() refuses training.tp, which the error names by
    // the flag that gave it and its line.
    row("tp does not divide the heads", LaunchTarget::megatron,
        args + "\n--tensor-model-parallel-size 3",
        "tensor-model-parallel-size (line 2, read as training.tp)");
    // 32 layers on 3 stages without end-stage counts or the accounting flags: Megatron-LM
    // asserts that pp divides the layers (core_v0.12.0 arguments.py).
    row("pp does not divide the layers", LaunchTarget::megatron,
        "torchrun --nnodes 1 --nproc-per-node 3 pretrain_gpt.py " + args +
            "\n--pipeline-model-parallel-size 3",
        "pipeline-model-parallel-size (line 2)");
    // Two settings on two lines gave the KV heads (5 does not divide 32).
    row("query groups do not divide the heads", LaunchTarget::megatron,
        args + "\n--group-query-attention\n--num-query-groups 5",
        "group-query-attention, num-query-groups (lines 2, 3, read as model.kv_heads)");
    row("bf16 and fp16", LaunchTarget::megatron, args + "--bf16 --fp16", "fp16 (line 1)");
    row("contradictory repeat", LaunchTarget::megatron,
        args + "--micro-batch-size 1\n--micro-batch-size 2", "micro-batch-size (line 2)");
    row("missing layers", LaunchTarget::megatron,
        "--hidden-size 4096 --num-attention-heads 32 --max-position-embeddings 4096", "num-layers");
    row("missing vocabulary", LaunchTarget::megatron,
        "--num-layers 2 --hidden-size 4096 --num-attention-heads 32 --ffn-hidden-size 8 "
        "--max-position-embeddings 4096",
        "vocab-size");
    row("flag with a value", LaunchTarget::megatron, args + "--sequence-parallel yes",
        "sequence-parallel (line 1)");
    // argparse's store_true takes no value: "--bf16 true" leaves "true" unrecognised.
    row("flag with a boolean", LaunchTarget::megatron, args + "--bf16 true", "bf16 (line 1)");
    row("unclosed quote", LaunchTarget::megatron, args + "--moe-layer-freq '([0]*3", "line 1");
    row("ZeRO stage 4", LaunchTarget::deepspeed,
        R"({"train_batch_size": 8, "train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 4}})",
        "zero_optimization.stage");
    row("JSON not an object", LaunchTarget::deepspeed, "[1, 2]", "JSON");
    row("YAML indentation", LaunchTarget::accelerate, "distributed_type: FSDP\n  x: [\n", "line 2");
    row("torchtitan flavour", LaunchTarget::torchtitan,
        "[model]\nname = \"llama3\"\nflavor = \"1T\"\n", "model.flavor (line 3)");
}

void TestLaunchConfig::badInput() {
    QFETCH(int, target);
    QFETCH(QString, text);
    QFETCH(QString, field);
    QString message;
    QCOMPARE(import_error(text.toStdString(), static_cast<LaunchTarget>(target), &message), field);
    QVERIFY(!message.isEmpty());
}

void TestLaunchConfig::unknownIsListedWhenAllowed() {
    LaunchImportOptions options;
    options.from = LaunchTarget::megatron;
    options.allow_unknown = true;
    const LaunchImport r = import_launch_config(
        "--num-layers 2 --hidden-size 256 --num-attention-heads 4 --ffn-hidden-size 1024 "
        "--vocab-size 1000 --max-position-embeddings 512 --seq-length 512 --my-flag 3",
        "run.sh", options);
    QCOMPARE(r.unknown.size(), std::size_t{1});
    QCOMPARE(r.unknown[0].key, std::string("my-flag"));
    QVERIFY(r.spec.description.find("my-flag") != std::string::npos);
}

void TestLaunchConfig::megatronBlockRecomputeAndTpOverlap() {
    // The Llama 3 8B H100 FP8 recipe's recomputation (Megatron-Bridge: recompute_method block,
    // recompute_num_layers 5) and a TP overlap, read as Megatron-LM arguments and written back
    // the same way; a framework without either refuses the plan by the field's name.
    LaunchImportOptions options;
    options.from = LaunchTarget::megatron;
    const LaunchImport r = import_launch_config(
        "--num-layers 32 --hidden-size 4096 --num-attention-heads 32 --ffn-hidden-size 14336 "
        "--vocab-size 128256 --max-position-embeddings 8192 --seq-length 8192 "
        "--tensor-model-parallel-size 2 --sequence-parallel --tp-comm-overlap "
        "--recompute-granularity full --recompute-method block --recompute-num-layers 5 --bf16 "
        "--grad-reduce-in-bf16",
        "run.sh", options);
    QCOMPARE(r.spec.training.recompute, Recompute::full);
    QCOMPARE(r.spec.training.recompute_layers, std::int64_t{5});
    QVERIFY(r.spec.training.tp_comm_overlap);
    const std::string text = export_launch_config(r.spec, LaunchTarget::megatron);
    QVERIFY(text.find("--recompute-method block") != std::string::npos);
    QVERIFY(text.find("--recompute-num-layers 5") != std::string::npos);
    QVERIFY(text.find("--tp-comm-overlap") != std::string::npos);
    PlanSpec only_recompute = r.spec;
    only_recompute.training.tp_comm_overlap = false;
    only_recompute.training.tp = 1;
    only_recompute.training.sequence_parallel = false;
    QCOMPARE(refusal_field(only_recompute, LaunchTarget::deepspeed),
             std::string("training.recompute_layers"));
    // The uniform method with a count other than 1 checkpoints groups of layers: refused.
    QString message;
    QCOMPARE(import_error("--num-layers 32 --hidden-size 4096 --num-attention-heads 32 "
                          "--ffn-hidden-size 14336 --vocab-size 128256 "
                          "--max-position-embeddings 8192 --seq-length 8192 "
                          "--recompute-granularity full --recompute-method uniform "
                          "--recompute-num-layers 4",
                          LaunchTarget::megatron, &message),
             QString("recompute-num-layers (line 1)"));
    QVERIFY(message.contains("uniform"));
}

void TestLaunchConfig::crossEntropyFusionTravelsAsItsTwoFlags() {
    // Megatron-Core runs Transformer Engine's cross-entropy only with the fusion on and its te
    // implementation (compute_language_model_loss): the two read as training.cross_entropy
    // in_place, written back as the same two flags; either alone keeps the fp32 softmax.
    const std::string base =
        "--num-layers 32 --hidden-size 4096 --num-attention-heads 32 --ffn-hidden-size 14336 "
        "--vocab-size 128256 --max-position-embeddings 8192 --seq-length 8192 --bf16 ";
    LaunchImportOptions options;
    options.from = LaunchTarget::megatron;
    const LaunchImport r = import_launch_config(
        base + "--cross-entropy-loss-fusion --cross-entropy-fusion-impl te", "run.sh", options);
    QCOMPARE(r.spec.training.cross_entropy, CrossEntropy::in_place);
    QVERIFY(r.spec.description.find("2.17") != std::string::npos);
    const std::string text = export_launch_config(r.spec, LaunchTarget::megatron);
    QVERIFY(text.find("--cross-entropy-loss-fusion") != std::string::npos);
    QVERIFY(text.find("--cross-entropy-fusion-impl te") != std::string::npos);
    QCOMPARE(import_launch_config(text, "run.sh", options).spec.training.cross_entropy,
             CrossEntropy::in_place);
    QCOMPARE(import_launch_config(base + "--cross-entropy-fusion-impl te", "run.sh", options)
                 .spec.training.cross_entropy,
             CrossEntropy::fp32);
    QCOMPARE(import_launch_config(base + "--cross-entropy-loss-fusion", "run.sh", options)
                 .spec.training.cross_entropy,
             CrossEntropy::fp32);
    // An fp32 plan writes neither flag.
    PlanSpec fp32 = r.spec;
    fp32.training.cross_entropy = CrossEntropy::fp32;
    QVERIFY(export_launch_config(fp32, LaunchTarget::megatron).find("cross-entropy") ==
            std::string::npos);
    // NeMo's overrides carry the same two settings there and back.
    const std::string nemo = export_launch_config(r.spec, LaunchTarget::nemo);
    QVERIFY(nemo.find("model.config.cross_entropy_fusion_impl=te") != std::string::npos);
    QCOMPARE(import_text(nemo, LaunchTarget::nemo).spec.training.cross_entropy,
             CrossEntropy::in_place);
    // An unknown implementation is refused by its flag.
    QString message;
    QCOMPARE(
        import_error(base + "--cross-entropy-fusion-impl apex", LaunchTarget::megatron, &message),
        QString("cross-entropy-fusion-impl (line 1)"));
    QVERIFY2(message.contains("native or te"), qPrintable(message));
    // Frameworks whose loss is PyTorch's refuse the in-place plan by the field's name.
    PlanSpec plain = seventy_b(3);
    QCOMPARE(refusal_field(plain, LaunchTarget::deepspeed), std::string());
    plain.training.cross_entropy = CrossEntropy::in_place;
    QCOMPARE(refusal_field(plain, LaunchTarget::deepspeed), std::string("training.cross_entropy"));
    QCOMPARE(refusal_field(plain, LaunchTarget::accelerate), std::string("training.cross_entropy"));
}

void TestLaunchConfig::selectiveRecomputeTakesNoMethodOrCount() {
    // Megatron-LM's validate_args() stops on a method beside selective recomputation, given
    // directly or through --recompute-activations; Megatron-Core's TransformerConfig stops on a
    // layer count beside it (and ignores a method: NeMo's model.config).
    const std::string base =
        "--num-layers 32 --hidden-size 4096 --num-attention-heads 32 --ffn-hidden-size 14336 "
        "--vocab-size 128256 --max-position-embeddings 8192 --seq-length 8192 ";
    QString message;
    QCOMPARE(import_error(base + "--recompute-granularity selective --recompute-method uniform",
                          LaunchTarget::megatron, &message),
             QString("recompute-method (line 1)"));
    QVERIFY2(message.contains("selective"), qPrintable(message));
    QCOMPARE(import_error(base + "--recompute-activations --recompute-granularity full "
                                 "--recompute-method uniform --recompute-num-layers 1",
                          LaunchTarget::megatron),
             QString("recompute-method (line 1)"));
    QCOMPARE(import_error(base + "--recompute-granularity selective --recompute-num-layers 1",
                          LaunchTarget::megatron),
             QString("recompute-num-layers (line 1)"));
    // Selective alone is read.
    QCOMPARE(import_text(base + "--recompute-granularity selective", LaunchTarget::megatron)
                 .spec.training.recompute,
             Recompute::selective);

    PlanSpec spec = eight_b(R"("tp": 2, "pp": 1, "recompute": "selective")");
    const std::string nemo = export_launch_config(spec, LaunchTarget::nemo);
    QVERIFY2(nemo.find("recompute_granularity=selective") != std::string::npos, nemo.c_str());
    QCOMPARE(import_text(nemo + "\nmodel.config.recompute_method=uniform\n", LaunchTarget::nemo)
                 .spec.training.recompute,
             Recompute::selective);
    QVERIFY(import_error(nemo + "\nmodel.config.recompute_num_layers=1\n", LaunchTarget::nemo)
                .startsWith("model.config.recompute_num_layers"));
}

// Nothing the plan says is dropped without a word. NeMo's overrides carry the optimizer
// (optim.config.optimizer) and the gradient-reduction overlap (trainer.strategy.ddp.
// overlap_grad_reduce); Tally's own assumptions (the attention kernel, counting the recompute
// working set) ride in the "# tally:" block of every form with comments; what a framework fixes
// and its file cannot say (flash attention in torchtitan, dropout in a DeepSpeed model, the
// optimizer of an accelerate script) is written with a note naming the field.
void TestLaunchConfig::nothingIsDroppedSilently() {
    const PlanSpec nemo_plan = eight_b(R"("optimizer": "sgd", "dp_overlap": false)");
    const std::string nemo = export_launch_config(nemo_plan, LaunchTarget::nemo);
    QVERIFY2(nemo.find("optim.config.optimizer=sgd") != std::string::npos, nemo.c_str());
    QVERIFY2(nemo.find("trainer.strategy.ddp.overlap_grad_reduce=False") != std::string::npos,
             nemo.c_str());
    const PlanSpec nemo_back = import_text(nemo, LaunchTarget::nemo).spec;
    QCOMPARE(nemo_back.training.optimizer, Optimizer::sgd);
    QVERIFY(!nemo_back.training.dp_overlap);

    const PlanSpec assumed = eight_b(
        R"("attention_kernel": "flash2", "recompute": "full", "recompute_working_set": true)");
    for (LaunchTarget t : {LaunchTarget::megatron, LaunchTarget::nemo, LaunchTarget::torchtitan}) {
        const std::string text = export_launch_config(assumed, t);
        QVERIFY2(text.find("tally: training.attention_kernel = flash2") != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("tally: training.recompute_working_set = true") != std::string::npos,
                 text.c_str());
        const PlanSpec back = import_text(text, t).spec;
        QCOMPARE(back.training.attention_kernel, AttentionKernel::flash2);
        QVERIFY(back.training.recompute_working_set);
    }

    const auto noted = [](const PlanSpec& spec, LaunchTarget t, const char* field) {
        for (const Text& note : launch_export_notes(spec, t)) {
            if (note.english().find(field) != std::string::npos) {
                return true;
            }
        }
        return false;
    };
    const PlanSpec unfused = eight_b(R"("flash_attention": false, "zero": 3)");
    QVERIFY(noted(unfused, LaunchTarget::torchtitan, "training.flash_attention"));
    QVERIFY(noted(unfused, LaunchTarget::deepspeed, "training.flash_attention"));
    QVERIFY(noted(unfused, LaunchTarget::accelerate, "training.flash_attention"));
    QVERIFY(noted(eight_b(R"("flash_attention": false)"), LaunchTarget::nemo,
                  "training.flash_attention"));
    QVERIFY(!noted(eight_b(R"("flash_attention": false)"), LaunchTarget::megatron,
                   "training.flash_attention"));
    QVERIFY(noted(eight_b(R"("dropout": true, "zero": 3)"), LaunchTarget::deepspeed,
                  "training.dropout"));
    QVERIFY(noted(eight_b(R"("dp_overlap": false, "zero": 3)"), LaunchTarget::torchtitan,
                  "training.dp_overlap"));
    QVERIFY(noted(eight_b(R"("optimizer": "sgd", "zero": 3)"), LaunchTarget::accelerate, "sgd"));
    // The notes sit in the file's header too.
    QVERIFY(export_launch_config(unfused, LaunchTarget::torchtitan)
                .find("note: this plan has training.flash_attention false") != std::string::npos);
    // torchtitan builds Adam or AdamW only: SGD is refused by its field.
    QCOMPARE(refusal_field(eight_b(R"("optimizer": "sgd", "zero": 3)"), LaunchTarget::torchtitan),
             std::string("training.optimizer"));
}

void TestLaunchConfig::everyValueComesBackOrIsNamed_data() {
    QTest::addColumn<int>("target");
    for (LaunchTarget t : launch_targets()) {
        QTest::newRow(std::string(to_string(t)).c_str()) << static_cast<int>(t);
    }
}

// Export, then import the file back (with the model's config.json where the file has no model):
// every value of the plan comes back as it was, or the export's notes name its field. The values
// the plan's days rest on are checked by hand: 8192 tokens a sequence, 15e12 tokens, $2.5 a
// GPU-hour, MFU 0.4, 512 sequences a step, one per GPU.
void TestLaunchConfig::everyValueComesBackOrIsNamed() {
    QFETCH(int, target);
    const LaunchTarget t = static_cast<LaunchTarget>(target);
    // Megatron-LM and NeMo shard the optimizer state only (ZeRO-1).
    const bool zero3 = t != LaunchTarget::megatron && t != LaunchTarget::nemo;
    const PlanSpec spec = seventy_b(zero3 ? 3 : 1);
    const std::string text = export_launch_config(spec, t);
    std::string notes;
    for (const Text& n : launch_export_notes(spec, t)) {
        notes += n.english() + "\n";
    }
    const bool model_beside = t == LaunchTarget::deepspeed || t == LaunchTarget::accelerate;
    const LaunchImport back =
        import_text(text, t, model_beside ? std::optional(spec.model) : std::nullopt);
    const PlanSpec& r = back.spec;
    QCOMPARE(r.data.seq_len, std::int64_t{8192});
    QCOMPARE(r.data.tokens, 15e12);
    QCOMPARE(r.data.global_batch, std::int64_t{512});
    QCOMPARE(r.data.micro_batch, std::int64_t{1});
    QVERIFY(r.cluster.price_per_gpu_hour == std::optional(2.5));
    QCOMPARE(r.cluster.mfu, 0.4);
    QCOMPARE(r.cluster.gpus, std::int64_t{512});
    QCOMPARE(r.training.zero, zero3 ? 3 : 1);

    const auto before = spec_leaves(spec);
    const auto after = spec_leaves(r);
    std::set<std::string> paths;
    for (const auto& [path, value] : before) {
        paths.insert(path);
    }
    for (const auto& [path, value] : after) {
        paths.insert(path);
    }
    for (const std::string& path : paths) {
        if (path == "description" || path == "model.name") {
            continue;  // labels: an import describes what it read, names the model after its
                       // sizes or config.json
        }
        const auto b = before.find(path);
        const auto a = after.find(path);
        const bool same = b != before.end() && a != after.end() && b->second == a->second;
        // A field that differs is named in the notes (training.engine: "timed as training.engine
        // megatron; deepspeed runs as deepspeed").
        const std::string field = path.substr(0, path.find('.', path.find('.') + 1));
        QVERIFY2(same || notes.find(field) != std::string::npos,
                 (path + " changed, not named in the notes:\n" + notes + text).c_str());
    }
    // A file without the model says so, naming the model it leaves out.
    QCOMPARE(notes.find("the model is not carried") != std::string::npos, model_beside);
    // The import does not list as assumed what the file carries.
    QVERIFY2(!names(back, "data.seq_len") && !names(back, "data.tokens") &&
                 !names(back, "cluster.price_per_gpu_hour"),
             guesses_text(back).c_str());
}

// The settings a DeepSpeed JSON and an accelerate YAML have no setting for ride in the "tally"
// object and the "# tally:" lines; a bad value there is refused naming it, and a target whose
// file has the setting (Megatron-LM's --seq-length) does not take it there.
void TestLaunchConfig::carriedSettingsReadBack() {
    const PlanSpec spec = seventy_b(3);
    const std::string ds = export_launch_config(spec, LaunchTarget::deepspeed);
    const nlohmann::json j = nlohmann::json::parse(ds);
    QCOMPARE(j["tally"]["data"]["seq_len"].get<std::string>(), std::string("8192"));
    QCOMPARE(j["tally"]["data"]["tokens"].get<std::string>(), std::string("15000000000000"));
    QCOMPARE(j["tally"]["cluster"]["price_per_gpu_hour"].get<std::string>(), std::string("2.5"));
    const std::string yaml = export_launch_config(spec, LaunchTarget::accelerate);
    QVERIFY2(yaml.find("# tally: data.seq_len = 8192\n") != std::string::npos, yaml.c_str());
    QVERIFY(yaml.find("# tally: data.micro_batch = 1\n") != std::string::npos);
    QVERIFY(yaml.find("# tally: data.global_batch = 512\n") != std::string::npos);

    nlohmann::json bad = j;
    bad["tally"]["data"]["seq_len"] = "0";
    QString message;
    try {
        (void)import_text(bad.dump(), LaunchTarget::deepspeed, spec.model);
        QFAIL("a sequence length of 0 was accepted");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QString("tally.data.seq_len"));
        QVERIFY2(QString::fromUtf8(e.what()).contains("a whole number >= 1"), e.what());
    }
    const std::string megatron = export_launch_config(seventy_b(1), LaunchTarget::megatron);
    QCOMPARE(
        import_error("# tally: data.seq_len = 4096\n" + megatron, LaunchTarget::megatron, &message),
        QString("tally: data.seq_len (line 1)"));
    QVERIFY(message.contains("training.flops_formula"));

    // Without the object, DeepSpeed's JSON leaves the tokens to Tally: listed once.
    nlohmann::json bare = j;
    bare.erase("tally");
    const LaunchImport r = import_text(bare.dump(), LaunchTarget::deepspeed, spec.model);
    int tokens = 0;
    for (const Text& g : r.guesses) {
        tokens += g.english().rfind("data.tokens", 0) == 0 ? 1 : 0;
    }
    QCOMPARE(tokens, 1);
    QVERIFY2(names(r, "data.seq_len"), guesses_text(r).c_str());
}

// Megatron-LM keeps a bf16 run's gradients in fp32: validate_args() sets
// accumulate_allreduce_grads_in_fp32 under --bf16 ("bfloat16 requires gradient accumulation and
// all-reduce to be done in fp32") unless --grad-reduce-in-bf16 (megatron/training/arguments.py,
// core_v0.12.0); an fp16 run keeps fp16 gradients unless --accumulate-allreduce-grads-in-fp32.
// NeMo 2's bf16-mixed plugin has grad_reduce_in_fp32=True by default.
void TestLaunchConfig::megatronAndNemoGradientsInFp32UnlessTold() {
    LaunchImportOptions options;
    options.from = LaunchTarget::megatron;
    const std::string model =
        "--num-layers 32 --hidden-size 4096 --num-attention-heads 32 --ffn-hidden-size 14336 "
        "--vocab-size 128256 --max-position-embeddings 8192 --seq-length 8192 ";
    auto grads = [&](const std::string& flags) {
        return import_launch_config(model + flags, "run.sh", options).spec.training.grad_dtype;
    };
    QCOMPARE(grads("--bf16"), DType::fp32);
    QCOMPARE(grads("--bf16 --grad-reduce-in-bf16"), DType::bf16);
    QCOMPARE(grads("--fp16"), DType::fp16);
    QCOMPARE(grads("--fp16 --accumulate-allreduce-grads-in-fp32"), DType::fp32);
    try {
        grads("--fp16 --grad-reduce-in-bf16");
        QFAIL("--grad-reduce-in-bf16 beside --fp16 was taken");
    } catch (const SpecError& e) {
        QVERIFY2(e.error().field.find("grad-reduce-in-bf16") != std::string::npos,
                 e.error().field.c_str());
    }

    // A plan with bf16 gradients says so; one with fp32 gradients is --bf16 alone, and both come
    // back as they went.
    PlanSpec spec = load_plan_spec(std::string(TALLY_SOURCE_DIR) +
                                   "/resources/examples/llama-3-70b-15t-1024-h100.json");
    QCOMPARE(spec.training.grad_dtype, DType::bf16);
    const std::string half = export_launch_config(spec, LaunchTarget::megatron);
    QVERIFY2(half.find("--bf16") != std::string::npos, half.c_str());
    QVERIFY2(half.find("--grad-reduce-in-bf16") != std::string::npos, half.c_str());
    QCOMPARE(import_text(half, LaunchTarget::megatron).spec.training.grad_dtype, DType::bf16);
    spec.training.grad_dtype = DType::fp32;
    const std::string full = export_launch_config(spec, LaunchTarget::megatron);
    QVERIFY2(full.find("--bf16") != std::string::npos, full.c_str());
    QVERIFY2(full.find("--grad-reduce-in-bf16") == std::string::npos, full.c_str());
    QCOMPARE(import_text(full, LaunchTarget::megatron).spec.training.grad_dtype, DType::fp32);

    // NeMo: the override says which; without it the plugin's default, fp32.
    const std::string nemo = export_launch_config(spec, LaunchTarget::nemo);
    QVERIFY2(nemo.find("trainer.plugins.grad_reduce_in_fp32=True") != std::string::npos,
             nemo.c_str());
    spec.training.grad_dtype = DType::bf16;
    const std::string nemo_half = export_launch_config(spec, LaunchTarget::nemo);
    QVERIFY2(nemo_half.find("trainer.plugins.grad_reduce_in_fp32=False") != std::string::npos,
             nemo_half.c_str());
    QCOMPARE(import_text(nemo_half, LaunchTarget::nemo).spec.training.grad_dtype, DType::bf16);
    std::string nemo_default = nemo_half;
    nemo_default.erase(nemo_default.find("trainer.plugins.grad_reduce_in_fp32=False"),
                       std::string("trainer.plugins.grad_reduce_in_fp32=False").size());
    QCOMPARE(import_text(nemo_default, LaunchTarget::nemo).spec.training.grad_dtype, DType::fp32);
}

void TestLaunchConfig::megatronNvfp4() {
    // Transformer Engine's NVFP4 as Megatron-LM takes it (core_v0.15.0 arguments.py:
    // --fp4-format e2m1, --fp4-recipe nvfp4, over --bf16): read as compute in nvfp4, written
    // back the same way.
    LaunchImportOptions options;
    options.from = LaunchTarget::megatron;
    PlanSpec blackwell;
    blackwell.cluster.gpu = "b200";  // a part with FP4 tensor cores
    options.base = blackwell;
    const std::string dense =
        "--num-layers 4 --hidden-size 1024 --num-attention-heads 8 --ffn-hidden-size 4096 "
        "--vocab-size 32000 --max-position-embeddings 4096 --seq-length 4096 --bf16 "
        "--grad-reduce-in-bf16 ";
    const LaunchImport r =
        import_launch_config(dense + "--fp4-format e2m1 --fp4-recipe nvfp4", "run.sh", options);
    QVERIFY(r.spec.training.compute_dtype == DType::nvfp4);
    const std::string text = export_launch_config(r.spec, LaunchTarget::megatron);
    QVERIFY(text.find("--fp4-format e2m1") != std::string::npos);
    QVERIFY(text.find("--fp4-recipe nvfp4") != std::string::npos);
    QVERIFY(text.find("--fp8-format") == std::string::npos);
    // The flags are core_v0.15.0's, newer than the release the rest of the table was checked
    // against: the file says so.
    QVERIFY(text.find("core_v0.15.0") != std::string::npos);
    QVERIFY(import_launch_config(text, "run.sh", options).spec.training.compute_dtype ==
            DType::nvfp4);
    // A printed argument block lists the recipe at its default in every run: no fp4 format, no
    // NVFP4.
    QVERIFY(import_launch_config(dense + "--fp4-recipe nvfp4", "run.sh", options)
                .spec.training.compute_dtype == DType::bf16);
    // Megatron-LM refuses fp4 beside fp8, and fp4 over fp16; so does the import, by the flag.
    for (const char* bad : {"--fp8-format hybrid --fp4-format e2m1", "--fp4-format e4m3"}) {
        try {
            (void)import_launch_config(dense + bad, "run.sh", options);
            QFAIL(bad);
        } catch (const SpecError& e) {
            QVERIFY2(std::string(e.what()).find("fp4") != std::string::npos, e.what());
        }
    }
    // A model's config.json is JSON, but no DeepSpeed config: named as what it is.
    try {
        (void)import_launch_config(R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 64})",
                                   "config.json", {});
        QFAIL("a Hugging Face config.json was read as a DeepSpeed config");
    } catch (const SpecError& e) {
        QCOMPARE(e.field(), std::string("architectures"));
        QVERIFY2(std::string(e.what()).find("--hf-config") != std::string::npos, e.what());
    }
    // NeMo 2's precision plugin and DeepSpeed have no NVFP4 recipe: refused by the field.
    QCOMPARE(refusal_field(r.spec, LaunchTarget::nemo), std::string("training.compute_dtype"));
    QCOMPARE(refusal_field(r.spec, LaunchTarget::deepspeed), std::string("training.compute_dtype"));
}

void TestLaunchConfig::megatronFlexDispatcher() {
    // DeepSeek-V3's group-limited routing and the flex dispatcher with DeepEP, as Megatron-LM
    // arguments: read into the spec, written back the same way; DeepSpeed has no such dispatcher
    // and refuses it by its name; an unknown dispatcher type is named.
    LaunchImportOptions options;
    options.from = LaunchTarget::megatron;
    const std::string moe =
        "--num-layers 4 --hidden-size 1024 --num-attention-heads 8 --ffn-hidden-size 4096 "
        "--vocab-size 32000 --max-position-embeddings 4096 --seq-length 4096 --bf16 "
        "--num-experts 64 --moe-router-topk 8 --moe-ffn-hidden-size 512 "
        "--moe-router-num-groups 8 --moe-router-group-topk 4 ";
    const LaunchImport r = import_launch_config(
        moe + "--grad-reduce-in-bf16 --moe-token-dispatcher-type flex --moe-enable-deepep",
        "run.sh", options);
    QVERIFY(r.spec.training.moe_dispatcher == MoeDispatcher::flex);
    QCOMPARE(r.spec.model.moe.router_groups, std::int64_t{8});
    QCOMPARE(r.spec.model.moe.router_group_topk, std::int64_t{4});
    const std::string text = export_launch_config(r.spec, LaunchTarget::megatron);
    QVERIFY(text.find("--moe-token-dispatcher-type flex") != std::string::npos);
    QVERIFY(text.find("--moe-enable-deepep") != std::string::npos);
    QVERIFY(text.find("--moe-router-num-groups 8") != std::string::npos);
    QVERIFY(text.find("--moe-router-group-topk 4") != std::string::npos);
    // The experts are timed as grouped GEMMs, which Megatron-LM runs only with this flag (its
    // default runs each local expert's GEMMs in turn); read back it changes nothing.
    QVERIFY(text.find("--moe-grouped-gemm") != std::string::npos);
    QCOMPARE(import_launch_config(text, "run.sh", options).spec.model.moe.experts,
             std::int64_t{64});
    QCOMPARE(refusal_field(r.spec, LaunchTarget::deepspeed),
             std::string("training.moe_dispatcher"));
    // DeepSeek-V3's router and YaRN settings (core_v0.12.0 arguments.py) change what is learned,
    // not what a step holds or takes: read as ignored, not refused as unknown.
    const LaunchImport routed = import_launch_config(
        moe +
            "--moe-router-score-function sigmoid --moe-router-enable-expert-bias "
            "--moe-router-dtype fp32 --moe-router-topk-scaling-factor 2.5 "
            "--rotary-scaling-factor 40 --mscale 1.0 --mscale-all-dim 1.0",
        "run.sh", options);
    QCOMPARE(routed.ignored.size(), std::size_t{7});
    QVERIFY(routed.unknown.empty());
    // A switch reads "on" in either list; the plan's name comes from the file, not a guess.
    QVERIFY(std::any_of(routed.ignored.begin(), routed.ignored.end(), [](const LaunchSetting& l) {
        return l.key == "moe-router-enable-expert-bias" && l.value == "on";
    }));
    QVERIFY(std::none_of(routed.guesses.begin(), routed.guesses.end(),
                         [](const Text& t) { return t.english().rfind("name =", 0) == 0; }));
    QCOMPARE(routed.spec.name, std::string("run.sh (Megatron-LM arguments)"));
    // Megatron's allgather dispatcher is timed as the all-to-all, and the import says so; the
    // plan is written back with the dispatcher it is timed with, since left out Megatron-Core
    // would run allgather (core_v0.12.0 arguments.py: default='allgather').
    const LaunchImport a =
        import_launch_config(moe + "--moe-token-dispatcher-type allgather", "run.sh", options);
    QVERIFY(a.spec.training.moe_dispatcher == MoeDispatcher::alltoall);
    QVERIFY(std::any_of(a.guesses.begin(), a.guesses.end(), [](const Text& g) {
        return g.english().find("allgather dispatcher is timed as the all-to-all") !=
               std::string::npos;
    }));
    QVERIFY(export_launch_config(a.spec, LaunchTarget::megatron)
                .find("--moe-token-dispatcher-type alltoall") != std::string::npos);
    // No dispatcher named: Megatron-Core's default, allgather, timed as the all-to-all, said so.
    const LaunchImport unnamed = import_launch_config(moe, "run.sh", options);
    QVERIFY(std::any_of(unnamed.guesses.begin(), unnamed.guesses.end(), [](const Text& g) {
        return g.english().find("names no dispatcher") != std::string::npos;
    }));
    QVERIFY(export_launch_config(a.spec, LaunchTarget::nemo)
                .find("model.config.moe_token_dispatcher_type=alltoall") != std::string::npos);
    // A dense model has no dispatcher to name.
    QVERIFY(
        export_launch_config(load_plan_spec(std::string(TALLY_SOURCE_DIR) +
                                            "/resources/examples/llama-3-70b-15t-1024-h100.json"),
                             LaunchTarget::megatron)
            .find("dispatcher") == std::string::npos);
    QString message;
    QCOMPARE(
        import_error(moe + "--moe-token-dispatcher-type deepep", LaunchTarget::megatron, &message),
        QString("moe-token-dispatcher-type (line 1)"));
    QVERIFY(message.contains("flex"));
}

// torchtitan's tensor parallelism always shards the norms along the sequence: apply_tp in
// torchtitan v0.2.2's torchtitan/models/llama3/infra/parallelize.py gives attention_norm,
// ffn_norm and the final norm SequenceParallel(), and job_config.py has no setting to turn it
// off. A TOML with tp > 1 therefore reads as sequence parallel, and the plan's activations come
// back as they were exported.
// torchtitan's optimizer.name builds Adam or AdamW (torchtitan/components/optimizer.py, AdamW by
// default), and a float8 or MX converter swaps the linear layers for torchao's fp8 modules, which
// Tally does not time: read, written back, or refused by name, never listed as of no bearing.
void TestLaunchConfig::torchtitanOptimizerAndConverters() {
    LaunchImportOptions options;
    options.gpus = 8;
    const std::string job = "[model]\nname = \"llama3\"\nflavor = \"8B\"\n";
    auto import = [&](const std::string& extra) {
        return import_launch_config(job + extra, "job.toml", options);
    };
    QCOMPARE(import("").spec.training.optimizer, Optimizer::adamw);
    const LaunchImport adam = import("[optimizer]\nname = \"Adam\"\n");
    QCOMPARE(adam.spec.training.optimizer, Optimizer::adam);
    const std::string written = export_launch_config(adam.spec, LaunchTarget::torchtitan);
    QVERIFY2(written.find("name = 'Adam'") != std::string::npos, written.c_str());
    QCOMPARE(import_launch_config(written, "job.toml", options).spec.training.optimizer,
             Optimizer::adam);
    for (const char* converters :
         {"[\"quantize.linear.float8\"]", "[\"float8\"]", "[\"quantize.linear.mx\"]"}) {
        try {
            import(std::string("converters = ") + converters + "\n");
            QFAIL(converters);
        } catch (const SpecError& e) {
            QVERIFY2(e.error().field.find("model.converters") != std::string::npos,
                     e.error().field.c_str());
        }
    }
    PlanSpec sgd = adam.spec;
    sgd.training.optimizer = Optimizer::sgd;
    QCOMPARE(refusal_field(sgd, LaunchTarget::torchtitan), std::string("training.optimizer"));
}

void TestLaunchConfig::torchtitanTensorParallelIsSequenceParallel() {
    const PlanSpec spec = eight_b(R"("zero": 3, "tp": 8, "sequence_parallel": true)");
    LaunchImportOptions options;
    options.gpus = 64;
    const std::string toml = export_launch_config(spec, LaunchTarget::torchtitan);
    const LaunchImport back = import_launch_config(toml, "job.toml", options);
    QCOMPARE(back.spec.training.tp, std::int64_t{8});
    QCOMPARE(back.spec.training.sequence_parallel, true);
    QVERIFY2(!names(back, "training.sequence_parallel"), guesses_text(back).c_str());
    const HardwareProfile* h100 = find_builtin_hardware("h100-sxm");
    QVERIFY(h100);
    QCOMPARE(evaluate(back.spec, *h100).memory.activations_bytes,
             evaluate(spec, *h100).memory.activations_bytes);
    // Nothing to say of the sequence: the notes are the engine, a Megatron-Core plan (the
    // spec's default engine) that torchtitan runs as eager FSDP2, and the optimizer kernel the
    // plan's "engine" implementation is written as (Megatron-Core's FusedAdam: fused).
    const std::vector<Text> engine_notes = launch_export_notes(spec, LaunchTarget::torchtitan);
    QCOMPARE(engine_notes.size(), std::size_t{2});
    QVERIFY2(
        engine_notes[0].english().find("training.optimizer_impl engine; torchtitan's file "
                                       "names the kernel, written as fused") != std::string::npos,
        engine_notes[0].english().c_str());
    QVERIFY2(engine_notes[1].english().find("timed as training.engine megatron; torchtitan runs as "
                                            "fsdp") != std::string::npos,
             engine_notes[1].english().c_str());
    QCOMPARE(back.spec.training.engine, Engine::fsdp);
    PlanSpec eager = spec;
    eager.training.engine = Engine::fsdp;
    QVERIFY(launch_export_notes(eager, LaunchTarget::torchtitan).empty());

    // Without tensor parallelism there is nothing to shard: false, whatever the base said.
    PlanSpec one = spec;
    one.training.tp = 1;
    one.training.sequence_parallel = false;
    options.base = spec;
    QCOMPARE(import_launch_config(export_launch_config(one, LaunchTarget::torchtitan), "job.toml",
                                  options)
                 .spec.training.sequence_parallel,
             false);

    // A plan with tp 8 and no sequence parallelism exports (torchtitan runs it sequence
    // parallel), and says so, in the file and in the notes.
    PlanSpec unsharded = eager;  // an FSDP plan: no note of the engine
    unsharded.training.sequence_parallel = false;
    const std::vector<Text> notes = launch_export_notes(unsharded, LaunchTarget::torchtitan);
    QCOMPARE(notes.size(), std::size_t{1});
    QVERIFY(notes[0].english().find("training.sequence_parallel") != std::string::npos);
    const std::string text = export_launch_config(unsharded, LaunchTarget::torchtitan);
    QVERIFY2(
        text.find("# note: torchtitan's tensor parallelism always shards") != std::string::npos,
        text.c_str());
    PlanSpec megatron = unsharded;
    megatron.training.engine = Engine::megatron;
    QVERIFY(launch_export_notes(megatron, LaunchTarget::megatron).empty());
}

// Every setting the plan rests on that the file does not give is listed with its value: the
// Llama 3 8B plan above, exported and imported back, differs from the original only in fields
// the import names. DeepSpeed's JSON has no sequence length, accelerate's YAML no batch at all.
void TestLaunchConfig::importListsWhatItAssumed_data() {
    QTest::addColumn<int>("target");
    QTest::addColumn<QString>("training");
    // Data parallel with dropout, without flash attention or overlap: ZeRO-1 where the target is
    // Megatron-Core (its distributed optimizer), ZeRO-3 where it is FSDP or DeepSpeed.
    for (LaunchTarget t : launch_targets()) {
        const bool megatron = t == LaunchTarget::megatron || t == LaunchTarget::nemo;
        QTest::newRow(std::string(to_string(t)).c_str())
            << static_cast<int>(t)
            << QStringLiteral(R"("zero": %1, "tp": 1, "dropout": true, "flash_attention": false,
                "dp_overlap": false)")
                   .arg(megatron ? 1 : 3);
    }
    QTest::newRow("megatron tp 8") << static_cast<int>(LaunchTarget::megatron)
                                   << QStringLiteral(R"("zero": 1, "tp": 8, "sequence_parallel":
                                         true, "optimizer": "sgd")");
}

void TestLaunchConfig::importListsWhatItAssumed() {
    QFETCH(int, target);
    QFETCH(QString, training);
    const LaunchTarget t = static_cast<LaunchTarget>(target);
    const PlanSpec spec = eight_b(training.toStdString());
    const std::string text = export_launch_config(spec, t);
    const bool model_beside = t == LaunchTarget::deepspeed || t == LaunchTarget::accelerate;
    LaunchImportOptions options;
    options.from = t;
    options.model = model_beside ? std::optional(spec.model) : std::nullopt;
    options.gpus = t == LaunchTarget::torchtitan ? std::optional<std::int64_t>(64) : std::nullopt;
    const LaunchImport back = import_launch_config(text, "run", options);
    const PlanSpec& r = back.spec;
    const std::string said = guesses_text(back);
    // Each field the round trip changed is among the guesses.
    const auto listed_if_changed = [&](const char* field, bool same) {
        QVERIFY2(same || names(back, std::string(field) + " = "),
                 (std::string(field) + " changed but is not listed:\n" + said).c_str());
    };
    listed_if_changed("data.seq_len", r.data.seq_len == spec.data.seq_len);
    listed_if_changed("data.micro_batch", r.data.micro_batch == spec.data.micro_batch);
    listed_if_changed("data.global_batch", r.data.global_batch == spec.data.global_batch);
    listed_if_changed("training.sequence_parallel",
                      r.training.sequence_parallel == spec.training.sequence_parallel);
    listed_if_changed("training.flash_attention",
                      r.training.flash_attention == spec.training.flash_attention);
    listed_if_changed("training.dropout", r.training.dropout == spec.training.dropout);
    listed_if_changed("training.dp_overlap", r.training.dp_overlap == spec.training.dp_overlap);
    listed_if_changed("training.optimizer", r.training.optimizer == spec.training.optimizer);
    listed_if_changed("training.flops_formula",
                      r.training.flops_formula == spec.training.flops_formula);
    listed_if_changed("cluster.mfu", r.cluster.mfu_predicted == spec.cluster.mfu_predicted &&
                                         r.cluster.mfu == spec.cluster.mfu);
    listed_if_changed("cluster.price_per_gpu_hour",
                      r.cluster.price_per_gpu_hour == spec.cluster.price_per_gpu_hour);
    listed_if_changed("cluster.gpu", r.cluster.gpu == spec.cluster.gpu);
    // What a DeepSpeed JSON or an accelerate YAML has no setting for travels in the tally block
    // (the JSON's "tally" object) and comes back as the plan had it: 8192 tokens a sequence,
    // 512 a step of 1 a GPU, the MFU, price, GPU and formula, none of them listed.
    if (t == LaunchTarget::deepspeed || t == LaunchTarget::accelerate) {
        QCOMPARE(r.data.seq_len, std::int64_t{8192});
        QCOMPARE(r.data.global_batch, std::int64_t{512});
        QCOMPARE(r.data.micro_batch, std::int64_t{1});
        QVERIFY2(!names(back, "data.") && !names(back, "cluster.") &&
                     !names(back, "training.flops_formula"),
                 said.c_str());
        // Without the block (a file written by hand): Tally's defaults, each listed. DeepSpeed's
        // JSON gives the batch (train_batch_size) but no sequence length: Tally's default, 4096
        // (DataSpec). accelerate's YAML gives neither: the micro-batch is Tally's 1 and the step
        // one micro-batch per data-parallel rank, 1 x 64 GPUs / (tp 1) = 64 sequences where the
        // plan had 512.
        std::string bare = without_comments(text);
        if (t == LaunchTarget::deepspeed) {
            nlohmann::json j = nlohmann::json::parse(text);
            j.erase("tally");
            bare = j.dump();
        }
        const LaunchImport plain = import_launch_config(bare, "run", options);
        const std::string plain_said = guesses_text(plain);
        QVERIFY2(names(plain, "data.seq_len = 4096: "), plain_said.c_str());
        QVERIFY(names(plain, "training.flops_formula = 6nd: "));
        QVERIFY(names(plain, "cluster.mfu = predicted: "));
        QVERIFY(names(plain, "cluster.price_per_gpu_hour = none: "));
        QVERIFY(names(plain, "cluster.gpu = h100-sxm: "));
        if (t == LaunchTarget::accelerate) {
            QVERIFY2(names(plain,
                           "data.global_batch = 0 (one micro-batch per data-parallel rank: "
                           "1 x 64 = 64)"),
                     plain_said.c_str());
            QVERIFY2(names(plain, "data.micro_batch = 1: "), plain_said.c_str());
        }
    }
    // What the file gives is not listed: the Megatron-LM arguments name the sequence, the
    // batches and dropout.
    if (t == LaunchTarget::megatron) {
        QVERIFY2(!names(back, "data.") && !names(back, "training.dropout"), said.c_str());
    }
    // The description carries the same list.
    for (const Text& g : back.guesses) {
        QVERIFY(r.description.find("Assumed: " + g.english() + ".") != std::string::npos);
    }
}

// Tally's own settings travel as "# tally:" comments where the form has them, and come back
// as given; in a window's import the current plan's are kept and said to be kept. A marked line
// Tally cannot read is an error naming it and its line.
void TestLaunchConfig::tallySettingsTravelInComments() {
    const PlanSpec spec = eight_b(R"("zero": 1, "tp": 8, "sequence_parallel": true)");
    const std::string text = export_launch_config(spec, LaunchTarget::megatron);
    QVERIFY2(text.find("# tally: cluster.mfu = 0.3\n") != std::string::npos, text.c_str());
    QVERIFY(text.find("# tally: cluster.price_per_gpu_hour = 2.5\n") != std::string::npos);
    QVERIFY(text.find("# tally: training.flops_formula = attention\n") != std::string::npos);
    QVERIFY(text.find("# tally: cluster.gpu = h100-sxm\n") != std::string::npos);
    const LaunchImport back = import_text(text, LaunchTarget::megatron);
    QCOMPARE(back.spec.cluster.mfu_predicted, false);
    QCOMPARE(back.spec.cluster.mfu, 0.3);
    QVERIFY(back.spec.cluster.price_per_gpu_hour == std::optional(2.5));
    QCOMPARE(back.spec.training.flops_formula, FlopsFormula::attention);
    QVERIFY(std::any_of(back.read.begin(), back.read.end(), [](const LaunchSetting& x) {
        return x.key == "tally: cluster.mfu" && x.value == "0.3" && x.spec_field == "cluster.mfu";
    }));
    QVERIFY2(!names(back, "cluster."), guesses_text(back).c_str());

    // The plan's name comes back as the user gave it, on one line (a line break would end the
    // comment); a file without it is named after the file and its framework.
    PlanSpec named = spec;
    named.name = "Our 8B run:\nfirst try";
    const std::string named_text = export_launch_config(named, LaunchTarget::megatron);
    QVERIFY2(named_text.find("\n# tally: name = Our 8B run: first try\n") != std::string::npos,
             named_text.c_str());
    QCOMPARE(import_text(named_text, LaunchTarget::megatron).spec.name,
             std::string("Our 8B run: first try"));
    LaunchImportOptions from_megatron;
    from_megatron.from = LaunchTarget::megatron;
    QCOMPARE(import_launch_config(without_comments(named_text), "run.sh", from_megatron).spec.name,
             std::string("run.sh (Megatron-LM arguments)"));

    // A file without the block, imported over a plan: the plan's settings stay and are listed.
    PlanSpec base = spec;
    base.cluster.gpu = "a100-80gb";
    base.cluster.mfu = 0.45;
    LaunchImportOptions options;
    options.from = LaunchTarget::megatron;
    options.base = base;
    const LaunchImport kept = import_launch_config(without_comments(text), "run.sh", options);
    QCOMPARE(kept.spec.cluster.mfu, 0.45);
    QCOMPARE(kept.spec.cluster.mfu_predicted, false);
    QCOMPARE(kept.spec.cluster.gpu, std::string("a100-80gb"));
    QVERIFY2(names(kept, "cluster.mfu = 0.45: not in the file; kept from the current plan"),
             guesses_text(kept).c_str());

    // A marked line Tally cannot read names its line.
    const std::string args = without_comments(text);
    const auto error = [&](const std::string& line, QString* message) {
        return import_error("# " + line + "\n" + args, LaunchTarget::megatron, message);
    };
    QString message;
    QCOMPARE(error("tally: cluster.mfu = 2", &message), QString("tally: cluster.mfu (line 1)"));
    QVERIFY(message.contains("[0.001, 1]"));
    QCOMPARE(error("tally: cluster.colour = red", &message),
             QString("tally: cluster.colour (line 1)"));
    QVERIFY(message.contains("training.flops_formula"));
    QCOMPARE(error("tally: training.flops_formula = palm", &message),
             QString("tally: training.flops_formula (line 1)"));
    QVERIFY(message.contains("6nd or attention"));
    QCOMPARE(error("tally: cluster.gpu = h100 sxm", &message),
             QString("tally: cluster.gpu (line 1)"));
    QVERIFY(message.contains("letters, digits"));
    QCOMPARE(error("tally: cluster.price_per_gpu_hour = -1", &message),
             QString("tally: cluster.price_per_gpu_hour (line 1)"));
    QCOMPARE(error("tally: cluster.mfu 0.3", &message), QString("line 1"));
    // A line saved with Windows' ending reads the same.
    QCOMPARE(import_text("# tally: cluster.mfu = 0.25\r\n" + args, LaunchTarget::megatron)
                 .spec.cluster.mfu,
             0.25);
    QCOMPARE(import_error("# tally: cluster.mfu = 0.3\n# tally: cluster.mfu = 0.4\n" + args,
                          LaunchTarget::megatron, &message),
             QString("tally: cluster.mfu (line 2)"));
    QVERIFY(message.contains("line 1 gives 0.3"));
    // --allow-unknown lists a name it does not know.
    LaunchImportOptions lenient;
    lenient.from = LaunchTarget::megatron;
    lenient.allow_unknown = true;
    const LaunchImport listed =
        import_launch_config("# tally: cluster.colour = red\n" + args, "run.sh", lenient);
    QCOMPARE(listed.unknown.size(), std::size_t{1});
    QCOMPARE(listed.unknown[0].key, std::string("tally: cluster.colour"));
}

// The frameworks count a run in whole samples or steps; the exact token count rides in the
// "# tally:" block and comes back while the file's count still rounds from it.
void TestLaunchConfig::exactTokensTravelInComments() {
    PlanSpec spec = eight_b(R"("tp": 8)");
    spec.data.tokens = 1e12 + 123.0;
    // Megatron-LM: --train-samples = whole steps, round((1e12 + 123) / (512 x 8192)) =
    // round(238418.58) = 238419 steps of 512 = 122,070,528 samples, which alone give back
    // 122070528 x 8192 = 1,000,001,765,376 tokens (NeMo's steps below, the same run).
    const std::string megatron = export_launch_config(spec, LaunchTarget::megatron);
    QVERIFY2(megatron.find("--train-samples 122070528") != std::string::npos, megatron.c_str());
    QVERIFY2(megatron.find("# tally: data.tokens = 1000000000123\n") != std::string::npos,
             megatron.c_str());
    QCOMPARE(import_text(megatron, LaunchTarget::megatron).spec.data.tokens, 1e12 + 123.0);
    QCOMPARE(import_text(without_comments(megatron), LaunchTarget::megatron).spec.data.tokens,
             1000001765376.0);
    // Edited by hand after the export: 122070000 x 8192 = 999,997,440,000 tokens; the line's
    // 1e12 + 123 exports as 122070528, not 122070000, so the file's count wins and says so.
    std::string edited = megatron;
    edited.replace(edited.find("--train-samples 122070528"), 25, "--train-samples 122070000");
    const LaunchImport hand = import_text(edited, LaunchTarget::megatron);
    QCOMPARE(hand.spec.data.tokens, 999997440000.0);
    QVERIFY2(names(hand, "data.tokens = 9.99997e+11: from train-samples = 122070000"),
             guesses_text(hand).c_str());
    // NeMo: trainer.max_steps = round((1e12 + 123) / (512 x 8192)) = round(238418.58) = 238419,
    // alone 238419 x 4194304 = 1,000,001,765,376 tokens.
    const std::string nemo = export_launch_config(spec, LaunchTarget::nemo);
    QVERIFY2(nemo.find("trainer.max_steps=238419") != std::string::npos, nemo.c_str());
    QCOMPARE(import_text(nemo, LaunchTarget::nemo).spec.data.tokens, 1e12 + 123.0);
    QCOMPARE(import_text(without_comments(nemo), LaunchTarget::nemo).spec.data.tokens,
             1000001765376.0);
    // accelerate's YAML has no count of the run at all: the line gives it, and it is not
    // listed among the assumptions.
    PlanSpec fsdp = spec;
    fsdp.training.tp = 1;  // accelerate's FSDP has no tensor parallelism
    const LaunchImport acc = import_text(export_launch_config(fsdp, LaunchTarget::accelerate),
                                         LaunchTarget::accelerate, fsdp.model);
    QCOMPARE(acc.spec.data.tokens, 1e12 + 123.0);
    QVERIFY2(!names(acc, "data.tokens"), guesses_text(acc).c_str());
    // A value out of the spec's range names its line.
    QString message;
    QCOMPARE(import_error("# tally: data.tokens = 0\n" + without_comments(megatron),
                          LaunchTarget::megatron, &message),
             QString("tally: data.tokens (line 1)"));
    QVERIFY(message.contains("(0, 1e30]"));
}

// A window's import lays the file over the current plan; what the file does not give stays,
// unless the framework cannot run it: then the file's framework's default, said.
void TestLaunchConfig::importKeepsNothingTheFrameworkCannotRun() {
    // Current plan: Llama 3 8B (32 layers) at tp 8, pp 2 with 2 virtual stages (32 % (2 x 2) =
    // 0) and 3 layers on the first stage.
    PlanSpec base = eight_b(R"("tp": 8, "pp": 2, "interleave": 2)");
    base.training.first_stage_layers = 3;
    LaunchImportOptions over;
    over.base = base;

    // Megatron-LM arguments at tp 2 and no pipeline: no --num-layers-per-virtual-pipeline-stage
    // is Megatron's default, no interleave (an interleave of 2 at pp 1 was kept, and refused).
    const std::string megatron =
        export_launch_config(eight_b(R"("tp": 2)"), LaunchTarget::megatron);
    over.from = LaunchTarget::megatron;
    const LaunchImport m = import_launch_config(megatron, "run.sh", over);
    QCOMPARE(m.spec.training.pp, std::int64_t{1});
    QCOMPARE(m.spec.training.interleave, std::int64_t{1});
    QVERIFY(!check(m.spec, resolve_builtin_hardware(m.spec)));

    // accelerate's FSDP YAML has no tensor or pipeline parallelism: tp 8, pp 2, the interleave
    // and the first stage's layers of the current plan are each its default, and listed.
    PlanSpec fsdp = eight_b(R"("zero": 3)");
    const std::string yaml = export_launch_config(fsdp, LaunchTarget::accelerate);
    over.from = LaunchTarget::accelerate;
    over.model = fsdp.model;
    const LaunchImport a = import_launch_config(yaml, "fsdp.yaml", over);
    QCOMPARE(a.spec.training.tp, std::int64_t{1});
    QCOMPARE(a.spec.training.pp, std::int64_t{1});
    QCOMPARE(a.spec.training.interleave, std::int64_t{1});
    QCOMPARE(a.spec.training.first_stage_layers, std::int64_t{0});
    QVERIFY2(names(a, "training.tp = 1: the current plan's 8 does not run in accelerate"),
             guesses_text(a).c_str());
    QVERIFY2(names(a, "training.pp = 1: the current plan's 2 does not run in accelerate"),
             guesses_text(a).c_str());
    QVERIFY(!check(a.spec, resolve_builtin_hardware(a.spec)));
    // It exports again.
    QVERIFY(!export_launch_config(a.spec, LaunchTarget::accelerate).empty());

    // A model's config.json with a sliding window (Mistral 7B: 4096) beside Megatron-LM
    // arguments of the same sizes, which define no window: full attention, said.
    PlanSpec full = eight_b(R"("tp": 2)");
    full.model = find_model_preset("mistral-7b")->model;
    full.model.sliding_window = 0;
    LaunchImportOptions with_model;
    with_model.from = LaunchTarget::megatron;
    with_model.model = find_model_preset("mistral-7b")->model;
    const LaunchImport w = import_launch_config(export_launch_config(full, LaunchTarget::megatron),
                                                "run.sh", with_model);
    QCOMPARE(w.spec.model.sliding_window, std::int64_t{0});
    QVERIFY2(
        names(w,
              "model.sliding_window = its default: the model's 4096 does not run in Megatron-LM"),
        guesses_text(w).c_str());
    // A config.json of another model than the arguments give: Llama 3 8B's --vocab-size 128256
    // against Mistral 7B's 32000 (the first size that differs) is refused, naming the line.
    try {
        import_launch_config(megatron, "run.sh", with_model);
        QFAIL("another model's config.json was taken");
    } catch (const SpecError& e) {
        QVERIFY2(e.error().field.rfind("vocab-size (line ", 0) == 0, e.what());
        QVERIFY2(std::string(e.what()).find("32000 as the model's config.json gives") !=
                     std::string::npos,
                 e.what());
    }
    // A value the file gives itself is not replaced: the export refuses it by name instead.
    PlanSpec sw = eight_b(R"("tp": 2)");
    sw.model = find_model_preset("mistral-7b")->model;
    QCOMPARE(refusal_field(sw, LaunchTarget::megatron), std::string("model.sliding_window"));

    // NeMo 2 runs a fused attention kernel whatever the current plan says: a NeMo file with
    // context parallelism, laid over a plan without flash attention, reads it as on (as the
    // export's note says), not the current plan's off, which cp 2 cannot run with.
    PlanSpec cp = eight_b(R"("context_parallel": 2)");
    cp.cluster.gpus = 64;
    const std::string nemo = export_launch_config(cp, LaunchTarget::nemo);
    PlanSpec unfused = base;
    unfused.training.flash_attention = false;
    LaunchImportOptions on_unfused;
    on_unfused.from = LaunchTarget::nemo;
    on_unfused.base = unfused;
    LaunchImport n;
    try {
        n = import_launch_config(nemo, "nemo.txt", on_unfused);
    } catch (const SpecError& e) {
        QFAIL(e.what());
    }
    QVERIFY(n.spec.training.flash_attention);
    QCOMPARE(n.spec.training.context_parallel, std::int64_t{2});
    QVERIFY2(names(n,
                   "training.flash_attention = true: NeMo 2 recipe overrides runs it so by "
                   "design"),
             guesses_text(n).c_str());
    // The current plan's 3 first-stage layers do not hold without the pipeline the file leaves
    // out: its default, said, rather than a refusal of the file.
    QCOMPARE(n.spec.training.first_stage_layers, std::int64_t{0});
    QVERIFY2(
        names(n, "training.first_stage_layers = its default: the current plan's 3 does not hold"),
        guesses_text(n).c_str());
}

// Megatron-LM core_v0.12.0, megatron/training/arguments.py: --recompute-activations is a
// store_true switch that validate_args() turns into recompute_granularity = 'selective',
// overriding --recompute-granularity; --use-flash-attn is a store_true switch asking for
// FlashAttention, which Megatron-Core models run through --attention-backend (default auto).
void TestLaunchConfig::megatronFlashAttnAndRecomputeActivations() {
    const std::string args =
        "--num-layers 32 --hidden-size 4096 --num-attention-heads 32 --ffn-hidden-size 14336 "
        "--vocab-size 128256 --max-position-embeddings 8192 --seq-length 8192 --bf16 ";
    const LaunchImport r =
        import_text(args + "--use-flash-attn --recompute-activations", LaunchTarget::megatron);
    QCOMPARE(r.spec.training.recompute, Recompute::selective);
    QCOMPARE(r.spec.training.flash_attention, true);
    // Exported, the same run in the current names.
    const std::string text = export_launch_config(r.spec, LaunchTarget::megatron);
    QVERIFY(text.find("--recompute-granularity selective") != std::string::npos);
    // --use-flash-attn beside the default backend: Transformer Engine's choice, the engine's
    // kernel, written as auto.
    QVERIFY(text.find("--attention-backend auto") != std::string::npos);
    QCOMPARE(r.spec.training.attention_kernel, AttentionKernel::engine);
    QCOMPARE(import_text(args + "--recompute-granularity full --recompute-activations",
                         LaunchTarget::megatron)
                 .spec.training.recompute,
             Recompute::selective);
    // Beside unknown settings it is still read: recomputation is not left at none.
    LaunchImportOptions options;
    options.from = LaunchTarget::megatron;
    options.allow_unknown = true;
    const LaunchImport lenient =
        import_launch_config(args + "--recompute-activations --my-flag 3", "run.sh", options);
    QCOMPARE(lenient.spec.training.recompute, Recompute::selective);
    QCOMPARE(lenient.unknown.size(), std::size_t{1});
    // FlashAttention asked for beside a backend that runs none: refused, naming both.
    QString message;
    QCOMPARE(import_error(args + "--attention-backend unfused --use-flash-attn",
                          LaunchTarget::megatron, &message),
             QString("use-flash-attn (line 1)"));
    QVERIFY(message.contains("--attention-backend"));

    // The backend names the kernel the plan times: flash is FlashAttention (-2 unless the plan
    // says -3), fused cuDNN's kernel; written back the same. Transformer Engine runs neither the
    // first FlashAttention nor its Triton port: refused by the field's name.
    QCOMPARE(import_text(args + "--attention-backend flash", LaunchTarget::megatron)
                 .spec.training.attention_kernel,
             AttentionKernel::flash2);
    const LaunchImport fusedImport =
        import_text(args + "--attention-backend fused", LaunchTarget::megatron);
    PlanSpec fused = fusedImport.spec;
    QCOMPARE(fused.training.attention_kernel, AttentionKernel::cudnn);
    // Read from the backend: not among the assumptions as a setting Megatron-LM lacks.
    QVERIFY(std::none_of(fusedImport.guesses.begin(), fusedImport.guesses.end(), [](const Text& g) {
        return g.english().find("training.attention_kernel") != std::string::npos;
    }));
    QVERIFY(export_launch_config(fused, LaunchTarget::megatron).find("--attention-backend fused") !=
            std::string::npos);
    fused.training.attention_kernel = AttentionKernel::flash3;
    const std::string fa3 = export_launch_config(fused, LaunchTarget::megatron);
    QVERIFY(fa3.find("--attention-backend flash") != std::string::npos);
    QCOMPARE(import_text(fa3, LaunchTarget::megatron).spec.training.attention_kernel,
             AttentionKernel::flash3);
    fused.training.attention_kernel = AttentionKernel::triton;
    QCOMPARE(refusal_field(fused, LaunchTarget::megatron),
             std::string("training.attention_kernel"));
}

void TestLaunchConfig::detect() {
    QCOMPARE(detect_launch_target("", "job.toml"), std::optional(LaunchTarget::torchtitan));
    QCOMPARE(detect_launch_target("{}", "x"), std::optional(LaunchTarget::deepspeed));
    QCOMPARE(detect_launch_target("", "a.yml"), std::optional(LaunchTarget::accelerate));
    QCOMPARE(detect_launch_target("python pretrain_gpt.py --tp 1", "run.sh"),
             std::optional(LaunchTarget::megatron));
    QCOMPARE(detect_launch_target("trainer.strategy.tensor_model_parallel_size=2", "o.txt"),
             std::optional(LaunchTarget::nemo));
    QVERIFY(!detect_launch_target("hello", "notes.txt"));
}

// QK-norm (Qwen3) is Megatron-LM's --qk-layernorm and NeMo's model.config.qk_layernorm; with
// multi-latent attention the same flag builds the latents' norms (core_v0.12.0
// gpt_layer_specs.py: linear_q_up_proj and linear_kv_up_proj become TELayerNormColumnParallel-
// Linear), which DeepSeek-V3 has, so its export writes it too. Left out, either model trains
// without those norms.
// Multi-token prediction is Megatron-LM's --mtp-num-layers (None by default: no module) and
// NeMo's model.config.mtp_num_layers; a printed argument block names it mtp_num_layers. The
// frameworks without it refuse a plan that has one.
void TestLaunchConfig::mtpLayersTravelWithTheModel() {
    const auto has = [](const std::string& text, const char* what) {
        return text.find(what) != std::string::npos;
    };
    PlanSpec spec = deepseek_on_2048();
    QVERIFY(!has(export_launch_config(spec, LaunchTarget::megatron), "--mtp-num-layers"));
    QVERIFY(!has(export_launch_config(spec, LaunchTarget::nemo), "mtp_num_layers"));
    spec.model.mtp_layers = 1;
    const std::string megatron = export_launch_config(spec, LaunchTarget::megatron);
    QVERIFY2(has(megatron, "--mtp-num-layers 1"), megatron.c_str());
    const std::string nemo = export_launch_config(spec, LaunchTarget::nemo);
    QVERIFY2(has(nemo, "model.config.mtp_num_layers=1"), nemo.c_str());
    LaunchImportOptions options;
    options.from = LaunchTarget::megatron;
    const LaunchImport back = import_launch_config(megatron, "run.sh", options);
    QCOMPARE(back.spec.model.mtp_layers, std::int64_t{1});
    QCOMPARE(count_params(back.spec.model).total, count_params(spec.model).total);
    options.from = LaunchTarget::nemo;
    QCOMPARE(import_launch_config(nemo, "recipe.py", options).spec.model.mtp_layers,
             std::int64_t{1});
    // Left out of a Megatron-LM command line, Megatron-LM builds none.
    std::string without = megatron;
    without.erase(without.find("--mtp-num-layers 1"), std::string("--mtp-num-layers 1").size());
    options.from = LaunchTarget::megatron;
    QCOMPARE(import_launch_config(without, "run.sh", options).spec.model.mtp_layers,
             std::int64_t{0});
    // A printed argument block.
    const auto block = [](const std::string& mtp) {
        return "------------------------ arguments ------------------------\n"
               "  ffn_hidden_size ................................. 16384\n"
               "  global_batch_size ............................... 512\n"
               "  hidden_size ..................................... 4096\n"
               "  max_position_embeddings ......................... 4096\n"
               "  micro_batch_size ................................ 1\n"
               "  mtp_num_layers .................................. " +
               mtp +
               "\n"
               "  num_attention_heads ............................. 32\n"
               "  num_layers ...................................... 32\n"
               "  seq_length ...................................... 4096\n"
               "  vocab_size ...................................... 32000\n"
               "  world_size ...................................... 8\n"
               "-------------------- end of arguments ---------------------\n";
    };
    QCOMPARE(import_text(block("2"), LaunchTarget::megatron).spec.model.mtp_layers,
             std::int64_t{2});
    QCOMPARE(import_text(block("None"), LaunchTarget::megatron).spec.model.mtp_layers,
             std::int64_t{0});
    // torchtitan, DeepSpeed and Accelerate have no such module.
    spec.training.pp = 1;
    spec.training.zero = 3;
    for (const LaunchTarget target :
         {LaunchTarget::torchtitan, LaunchTarget::deepspeed, LaunchTarget::accelerate}) {
        QCOMPARE(refusal_field(spec, target), std::string("model.mtp_layers"));
    }
}

void TestLaunchConfig::qkLayernormTravelsWithTheModel() {
    PlanSpec spec = eight_b(R"("zero": 1)");
    const auto has = [](const std::string& text, const char* what) {
        return text.find(what) != std::string::npos;
    };
    QVERIFY(!has(export_launch_config(spec, LaunchTarget::megatron), "--qk-layernorm"));
    QVERIFY(has(export_launch_config(spec, LaunchTarget::nemo), "model.config.qk_layernorm=False"));
    spec.model.qk_norm = true;
    const std::string megatron = export_launch_config(spec, LaunchTarget::megatron);
    QVERIFY2(has(megatron, "--qk-layernorm"), megatron.c_str());
    QVERIFY(has(export_launch_config(spec, LaunchTarget::nemo), "model.config.qk_layernorm=True"));
    LaunchImportOptions options;
    options.from = LaunchTarget::megatron;
    QVERIFY(import_launch_config(megatron, "run.sh", options).spec.model.qk_norm);
    // torchtitan's llama3 flavours have no QK-norm: such a model is none of them.
    spec.training.zero = 3;
    QCOMPARE(refusal_field(spec, LaunchTarget::torchtitan), std::string("model"));

    const PlanSpec deepseek = deepseek_on_2048();
    const std::string mla = export_launch_config(deepseek, LaunchTarget::megatron);
    QVERIFY(has(mla, "--multi-latent-attention"));
    QVERIFY2(has(mla, "--qk-layernorm"), mla.c_str());
    QVERIFY(
        has(export_launch_config(deepseek, LaunchTarget::nemo), "model.config.qk_layernorm=True"));
    // Megatron-Core stops an MoE layer under tensor parallelism without sequence parallelism
    // (core_v0.12.0 moe_layer.py): neither Megatron-LM nor NeMo gets such a plan.
    PlanSpec no_sp = deepseek;
    no_sp.training.sequence_parallel = false;
    QCOMPARE(refusal_field(no_sp, LaunchTarget::megatron),
             std::string("training.sequence_parallel"));
    QCOMPARE(refusal_field(no_sp, LaunchTarget::nemo), std::string("training.sequence_parallel"));
    // The plan says so itself.
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    QVERIFY(evaluate(no_sp, h100).has(Warning::moe_tp_without_sp));
    QVERIFY(!evaluate(deepseek, h100).has(Warning::moe_tp_without_sp));
    no_sp.training.tp = 1;
    no_sp.cluster.gpus = 1024;
    QCOMPARE(refusal_field(no_sp, LaunchTarget::megatron), std::string());
    QVERIFY(!evaluate(no_sp, h100).has(Warning::moe_tp_without_sp));
    // Read back, the flag is MLA's own norms: no QK-norm beside them, and nothing guessed.
    const LaunchImport back = import_launch_config(mla, "run.sh", options);
    QVERIFY(!back.spec.model.qk_norm);
    QCOMPARE(count_params(back.spec.model).total, count_params(deepseek.model).total);
    const auto guessed_latents = [](const LaunchImport& r) {
        return std::any_of(r.guesses.begin(), r.guesses.end(), [](const Text& t) {
            return t.english().find("latents' norms") != std::string::npos;
        });
    };
    QVERIFY(!guessed_latents(back));
    // Without the flag Megatron-Core builds MLA without them: the import says what it assumed.
    std::string without = mla;
    without.erase(without.find("--qk-layernorm"), std::string("--qk-layernorm").size());
    QVERIFY(guessed_latents(import_launch_config(without, "run.sh", options)));
}

// DeepSeek-V3's 61 layers on pp 16: the plan spreads the embedding, the 61 layers and the output
// layer as 63 units over 16 stages (pipeline_stages.h, as Megatron-Core's account_for_embedding/
// loss_in_pipeline_split): 3 units each and one more on 15 of them, so the first stage holds
// 4 - 1 = 3 layers, the last 3 - 1 = 2, and the 14 between 4 each (3 + 56 + 2 = 61). Megatron-LM
// refuses 61 layers on 16 stages without --decoder-first/last-pipeline-num-layers, so the export
// writes the plan's 3 and 2, and NeMo's num_layers_in_first/last_pipeline_stage alike; reading
// the file back gives the same stages. On 32 stages the spread leaves the last stage the output
// layer alone (63 units, 1 each and 31 extra: first 1, last 0), which the flags cannot say.
void TestLaunchConfig::unevenStagesTravelAsTheirFlags() {
    const PlanSpec spec = deepseek_on_2048();
    const std::string megatron = export_launch_config(spec, LaunchTarget::megatron);
    QVERIFY2(megatron.find("--decoder-first-pipeline-num-layers 3") != std::string::npos,
             megatron.c_str());
    QVERIFY2(megatron.find("--decoder-last-pipeline-num-layers 2") != std::string::npos,
             megatron.c_str());
    const std::string nemo = export_launch_config(spec, LaunchTarget::nemo);
    QVERIFY2(nemo.find("num_layers_in_first_pipeline_stage=3") != std::string::npos, nemo.c_str());
    QVERIFY2(nemo.find("num_layers_in_last_pipeline_stage=2") != std::string::npos, nemo.c_str());
    LaunchImportOptions options;
    options.from = LaunchTarget::megatron;
    const LaunchImport back = import_launch_config(megatron, "run.sh", options);
    QCOMPARE(back.spec.training.first_stage_layers, std::int64_t{3});
    QCOMPARE(back.spec.training.last_stage_layers, std::int64_t{2});
    for (std::int64_t stage = 0; stage < 16; ++stage) {
        QCOMPARE(stage_layout(back.spec).layers_of(stage), stage_layout(spec).layers_of(stage));
        QCOMPARE(stage_layout(spec).layers_of(stage), stage == 0 ? 3 : stage == 15 ? 2 : 4);
    }

    PlanSpec thirty_two = spec;
    thirty_two.training.pp = 32;
    thirty_two.data.global_batch = 4096;
    try {
        (void)export_launch_config(thirty_two, LaunchTarget::megatron);
        QFAIL("61 layers on 32 stages with an empty last stage were exported");
    } catch (const SpecError& e) {
        QCOMPARE(e.error().field, std::string("training.first_stage_layers"));
        QCOMPARE(e.error().value, std::string("1 / 0"));
    }
}

// An interleaved schedule (v > 1) needs each stage's layers divisible by v in Megatron-Core
// (transformer_config.py refuses num_layers_in_first_pipeline_stage % v != 0). Llama 3 405B's 126
// layers on pp 8 spread 15 / 16 x 6 / 15, which v = 8 does not divide; Megatron-Core says the
// same spread with account_for_embedding_in_pipeline_split and account_for_loss_in_pipeline_split:
// (126 + 2) / 8 = 16 a stage, less one on the first and the last, and 128 / (8 x 8) = 2 layers a
// virtual stage. 32 layers on pp 4, v 2 with 9 on the first stage and 7 on the last (8 in the
// middle) is neither: 9 is odd, and 33 and 34 are not multiples of 4 x 2.
void TestLaunchConfig::interleavedUnevenStagesAsMegatronCoreTakesThem() {
    PlanSpec spec = plan_spec_from_text(R"({"model": {"preset": "llama-3-405b"},
        "data": {"tokens": 1e12, "seq_len": 8192, "global_batch": 1536, "micro_batch": 1},
        "cluster": {"gpu": "h100-sxm", "gpus": 1024},
        "training": {"tp": 8, "pp": 8, "interleave": 8, "context_parallel": 2, "zero": 1}})");
    QCOMPARE(spec.model.layers, std::int64_t{126});
    const std::string nemo = export_launch_config(spec, LaunchTarget::nemo);
    QVERIFY2(nemo.find("account_for_embedding_in_pipeline_split=True") != std::string::npos,
             nemo.c_str());
    QVERIFY2(nemo.find("account_for_loss_in_pipeline_split=True") != std::string::npos,
             nemo.c_str());
    QVERIFY2(nemo.find("num_layers_in_first_pipeline_stage") == std::string::npos, nemo.c_str());
    LaunchImportOptions options;
    options.from = LaunchTarget::nemo;
    const LaunchImport back = import_launch_config(nemo, "run.sh", options);
    QCOMPARE(back.spec.training.first_stage_layers, std::int64_t{15});
    QCOMPARE(back.spec.training.last_stage_layers, std::int64_t{15});
    for (std::int64_t stage = 0; stage < 8; ++stage) {
        QCOMPARE(stage_layout(back.spec).layers_of(stage), stage_layout(spec).layers_of(stage));
    }

    PlanSpec odd = plan_spec_from_text(R"({"model": {"preset": "llama-2-7b"},
        "data": {"tokens": 1e12, "seq_len": 4096, "global_batch": 64, "micro_batch": 1},
        "cluster": {"gpu": "h100-sxm", "gpus": 32},
        "training": {"tp": 1, "pp": 4, "interleave": 2, "first_stage_layers": 9,
                     "last_stage_layers": 7, "zero": 1}})");
    QCOMPARE(odd.model.layers, std::int64_t{32});
    try {
        (void)export_launch_config(odd, LaunchTarget::nemo);
        QFAIL("an interleaved first stage of 9 layers at v 2 was exported");
    } catch (const SpecError& e) {
        QCOMPARE(e.error().field, std::string("training.first_stage_layers"));
        QCOMPARE(e.error().value, std::string("9 / 7"));
    }
    // By default 38 layers on pp 6 spread 5 / 7 x 4 / 5 ((38 + 2) / 6 = 6 rest 4: each middle
    // stage one more than 6, the ends one less): 5 is odd at v 2, and 39 or 40 over 6 x 2
    // virtual stages is not whole, so it is refused. 80 layers on pp 6 spread 12 / 14 x 4 / 12
    // ((80 + 2) / 6 = 13 rest 4), which v 2 divides everywhere: written as the counts.
    PlanSpec six = odd;
    six.model.layers = 38;
    six.training.first_stage_layers = 0;
    six.training.last_stage_layers = 0;
    six.training.pp = 6;
    six.cluster.gpus = 48;
    six.data.global_batch = 64;
    try {
        (void)export_launch_config(six, LaunchTarget::nemo);
        QFAIL("5 / 7 / 5 at v 2 was exported");
    } catch (const SpecError& e) {
        QCOMPARE(e.error().value, std::string("5 / 5"));
    }
    six.model.layers = 80;
    const std::string eighty = export_launch_config(six, LaunchTarget::nemo);
    QVERIFY2(eighty.find("num_layers_in_first_pipeline_stage=12") != std::string::npos,
             eighty.c_str());
    QVERIFY2(eighty.find("num_layers_in_last_pipeline_stage=12") != std::string::npos,
             eighty.c_str());
    // 6 / 8 / 8 / 10 at v 2 divides: the counts travel as they are.
    odd.training.first_stage_layers = 6;
    odd.training.last_stage_layers = 10;
    const std::string even = export_launch_config(odd, LaunchTarget::nemo);
    QVERIFY2(even.find("num_layers_in_first_pipeline_stage=6") != std::string::npos, even.c_str());
    QVERIFY2(even.find("account_for") == std::string::npos, even.c_str());

    // Megatron-LM's arguments at core_v0.12.0 say both (megatron/training/arguments.py): the
    // accounting flags with layers per virtual stage, (126 + 2) / 8 / 8 = 2; explicit end stages
    // with --num-virtual-stages-per-pipeline-rank, which it requires beside
    // --decoder-first/last-pipeline-num-layers. Each reads back as the same stages and v.
    LaunchImportOptions megatron;
    megatron.from = LaunchTarget::megatron;
    const std::string args = export_launch_config(spec, LaunchTarget::megatron);
    for (const char* flag :
         {"--num-layers-per-virtual-pipeline-stage 2", "--account-for-embedding-in-pipeline-split",
          "--account-for-loss-in-pipeline-split"}) {
        QVERIFY2(args.find(flag) != std::string::npos, flag);
    }
    QVERIFY2(args.find("--decoder-first-pipeline-num-layers") == std::string::npos, args.c_str());
    const LaunchImport read = import_launch_config(args, "run.sh", megatron);
    QCOMPARE(read.spec.training.interleave, std::int64_t{8});
    for (std::int64_t stage = 0; stage < 8; ++stage) {
        QCOMPARE(stage_layout(read.spec).layers_of(stage), stage_layout(spec).layers_of(stage));
    }
    const std::string counts = export_launch_config(odd, LaunchTarget::megatron);
    for (const char* flag :
         {"--num-virtual-stages-per-pipeline-rank 2", "--decoder-first-pipeline-num-layers 6",
          "--decoder-last-pipeline-num-layers 10"}) {
        QVERIFY2(counts.find(flag) != std::string::npos, flag);
    }
    QVERIFY2(counts.find("--num-layers-per-virtual-pipeline-stage") == std::string::npos,
             counts.c_str());
    const LaunchImport counted = import_launch_config(counts, "run.sh", megatron);
    QCOMPARE(counted.spec.training.interleave, std::int64_t{2});
    QCOMPARE(counted.spec.training.first_stage_layers, std::int64_t{6});
    QCOMPARE(counted.spec.training.last_stage_layers, std::int64_t{10});
    // 9 / 7 at v 2 stays refused, by the same field as NeMo's.
    odd.training.first_stage_layers = 9;
    odd.training.last_stage_layers = 7;
    try {
        (void)export_launch_config(odd, LaunchTarget::megatron);
        QFAIL("an interleaved first stage of 9 layers at v 2 was written as arguments");
    } catch (const SpecError& e) {
        QCOMPARE(e.error().field, std::string("training.first_stage_layers"));
    }
    // Layers per virtual stage that do not divide the counted layers of a stage name the
    // argument: (126 + 2) / 8 = 16 a stage, not a multiple of 3.
    std::string three = args;
    three.replace(three.find("--num-layers-per-virtual-pipeline-stage 2"), 41,
                  "--num-layers-per-virtual-pipeline-stage 3");
    try {
        (void)import_launch_config(three, "run.sh", megatron);
        QFAIL("3 layers per virtual stage of 16 were read");
    } catch (const SpecError& e) {
        QCOMPARE(e.error().field, std::string("num-layers-per-virtual-pipeline-stage"));
    }
}

// A plan that offloads 4 layers' activations to the host (the GB200 Llama 3 70B recipes' form,
// as ZeRO-1 here) keeps their weights on the GPU: written with cpu_offloading_weights=False,
// since Megatron-Core's ModelParallelConfig defaulted it to True in earlier releases; a file
// that offloads the weights too is refused by that key, as Tally does not plan it.
void TestLaunchConfig::nemoOffloadsActivationsOnly() {
    PlanSpec spec = load_plan_spec(std::string(TALLY_SOURCE_DIR) +
                                   "/resources/examples/llama-3-70b-15t-1024-h100.json");
    spec.training.pp = 1;
    spec.training.recompute = Recompute::none;
    spec.training.activation_offload_layers = 4;
    const std::string nemo = export_launch_config(spec, LaunchTarget::nemo);
    QVERIFY2(nemo.find("model.config.cpu_offloading=True") != std::string::npos, nemo.c_str());
    QVERIFY2(nemo.find("model.config.cpu_offloading_weights=False") != std::string::npos,
             nemo.c_str());
    std::string weights = nemo;
    weights.replace(weights.find("cpu_offloading_weights=False"),
                    std::string("cpu_offloading_weights=False").size(),
                    "cpu_offloading_weights=True");
    QString message;
    QVERIFY(import_error(weights, LaunchTarget::nemo, &message)
                .startsWith(QStringLiteral("model.config.cpu_offloading_weights")));
    // Not said at all: the release decides, and the import says what it assumed.
    std::string unsaid = nemo;
    const std::size_t line = unsaid.find("model.config.cpu_offloading_weights=False");
    unsaid.erase(line, unsaid.find('\n', line) + 1 - line);
    LaunchImportOptions options;
    options.from = LaunchTarget::nemo;
    const LaunchImport back = import_launch_config(unsaid, "run.txt", options);
    QCOMPARE(back.spec.training.activation_offload_layers, std::int64_t{4});
    QVERIFY(std::any_of(back.guesses.begin(), back.guesses.end(), [](const Text& g) {
        return g.english().rfind("model.config.cpu_offloading_weights = false", 0) == 0;
    }));
}

// Llama 3 70B (70.55e9 parameters) unsharded on one H100: 2 bytes a parameter of bf16 weights
// alone are 141 GB of its 80 GB, so neither a training run (tp 1, pp 1: weights, gradients and
// Adam state on each GPU) nor a vLLM server at tp 1 can start. Both files are still written, to
// be edited, and both say so.
void TestLaunchConfig::exportsSayWhenThePlanDoesNotFit() {
    PlanSpec spec = load_plan_spec(std::string(TALLY_SOURCE_DIR) +
                                   "/resources/examples/llama-3-70b-15t-1024-h100.json");
    spec.cluster.gpus = 64;
    spec.data.global_batch = 64;
    spec.training.tp = 1;
    spec.training.pp = 1;
    spec.training.sequence_parallel = false;
    const auto says_no_fit = [](const std::vector<Text>& notes) {
        return std::any_of(notes.begin(), notes.end(), [](const Text& n) {
            return n.english().find("does not fit the GPU's memory") != std::string::npos;
        });
    };
    QVERIFY(says_no_fit(launch_export_notes(spec, LaunchTarget::megatron)));
    QVERIFY(!says_no_fit(
        launch_export_notes(load_plan_spec(std::string(TALLY_SOURCE_DIR) +
                                           "/resources/examples/llama-3-70b-15t-1024-h100.json"),
                            LaunchTarget::megatron)));
    spec.inference.tp = 1;
    QVERIFY(
        export_serving_command(spec, ServingTarget::vllm).find("does not fit the GPU's memory") !=
        std::string::npos);
    spec.inference.tp = 4;
    QVERIFY(
        export_serving_command(spec, ServingTarget::vllm).find("does not fit the GPU's memory") ==
        std::string::npos);
}

// Megatron-Core's recompute modules (TransformerConfig.recompute_modules, core_v0.12.0): a list,
// each module an argument of its own in Megatron-LM (argparse nargs='*'), a Python list in NeMo-
// Run's overrides. A plan recomputing the attention core, the norms and the experts' activation
// is written so and read back so; Megatron's "moe" (the whole MoE layer) is refused by name,
// Tally does not time it; modules without selective granularity, which Megatron-Core ignores,
// are dropped and the import says so.
void TestLaunchConfig::recomputeModulesTravelAsAList() {
    PlanSpec spec = plan_spec_from_text(R"({"model": {"preset": "mixtral-8x7b"},
        "data": {"tokens": 1e12, "seq_len": 4096, "global_batch": 256, "micro_batch": 1},
        "cluster": {"gpu": "h100-sxm", "gpus": 64},
        "training": {"tp": 2, "pp": 4, "expert_parallel": 8, "zero": 1, "recompute": "selective",
                     "sequence_parallel": true,
                     "recompute_modules": ["core_attn", "moe_act", "layernorm"]}})");
    const std::string megatron = export_launch_config(spec, LaunchTarget::megatron);
    QVERIFY2(
        megatron.find("--recompute-modules core_attn layernorm moe_act \\\n") != std::string::npos,
        megatron.c_str());
    const std::string nemo = export_launch_config(spec, LaunchTarget::nemo);
    QVERIFY2(nemo.find(R"(model.config.recompute_modules='["core_attn","layernorm","moe_act"]')") !=
                 std::string::npos,
             nemo.c_str());
    // The experts run grouped, as they are timed, whatever recipe the overrides lie over.
    QVERIFY2(nemo.find("model.config.moe_grouped_gemm=True") != std::string::npos, nemo.c_str());
    for (const auto& [text, target] :
         {std::pair{megatron, LaunchTarget::megatron}, std::pair{nemo, LaunchTarget::nemo}}) {
        LaunchImportOptions options;
        options.from = target;
        const LaunchImport back = import_launch_config(text, "run", options);
        QVERIFY(back.spec.training.recompute_modules == spec.training.recompute_modules);
        QVERIFY(back.spec.training.recompute == Recompute::selective);
    }
    // Megatron's printed argument block spells the list as Python does.
    LaunchImportOptions megatron_options;
    megatron_options.from = LaunchTarget::megatron;
    std::string whole = megatron;
    whole.replace(whole.find("--recompute-modules core_attn layernorm moe_act"),
                  std::string("--recompute-modules core_attn layernorm moe_act").size(),
                  "--recompute-modules core_attn moe");
    QString message;
    QVERIFY(import_error(whole, LaunchTarget::megatron, &message)
                .startsWith(QStringLiteral("recompute-modules")));
    QVERIFY2(message.contains(QStringLiteral("got moe; core_attn, layernorm")),
             qPrintable(message));
    std::string full = megatron;
    full.replace(
        full.find("--recompute-granularity selective"),
        std::string("--recompute-granularity selective").size(),
        "--recompute-granularity full --recompute-method uniform --recompute-num-layers 1");
    const LaunchImport ignored = import_launch_config(full, "run.sh", megatron_options);
    QVERIFY(!ignored.spec.training.recompute_modules.any());
    QVERIFY(std::any_of(ignored.guesses.begin(), ignored.guesses.end(), [](const Text& g) {
        return g.english().find("Megatron-Core then ignores") != std::string::npos;
    }));
}

QTEST_APPLESS_MAIN(TestLaunchConfig)
namespace {

PlanSpec served(const char* preset) {
    PlanSpec s;
    s.name = "served";
    s.model = find_model_preset(preset)->model;
    s.data.tokens = 1.0;
    s.cluster.gpu = "h100-sxm";
    return s;
}

// Llama 3 70B on 16 H100, tp 8: two replicas at concurrency 64, 2048-token prompts and 512
// output tokens, an fp8 KV cache, chunked prefill in 4096-token steps.
PlanSpec llama_70b_on_16() {
    PlanSpec s = served("llama-3-70b");
    s.cluster.gpus = 16;
    s.inference.tp = 8;
    s.inference.prompt_tokens = 2048;
    s.inference.output_tokens = 512;
    s.inference.concurrency = 64;
    s.inference.max_batched_tokens = 4096;
    s.inference.kv_dtype = DType::fp8_e4m3;
    return s;
}

// Mixtral 8x7B on 8 H100: tp 8, its experts over 8 GPUs, data-parallel attention, a static
// batch of 16 of 1000 + 200 tokens.
PlanSpec mixtral_with_experts() {
    PlanSpec s = served("mixtral-8x7b");
    s.cluster.gpus = 8;
    s.inference.tp = 8;
    s.inference.ep = 8;
    s.inference.dp_attention = true;
    s.inference.batch = 16;
    s.inference.prompt_tokens = 1000;
    s.inference.output_tokens = 200;
    return s;
}

}  // namespace

// Llama 3 70B on 16 H100, tp 8: two replicas, at concurrency 64, 2048-token prompts and 512
// output tokens, fp8 KV cache, chunked prefill in 4096-token steps. Every flag is the plan's own
// figure under vLLM's name (vllm/engine/arg_utils.py): the context 2048 + 512 = 2560, 64
// sequences a step, vLLM's default share of the memory (0.9) that the plan's KV cache assumes.
void TestLaunchConfig::vllmCommandSetsWhatThePlanCounts() {
    PlanSpec s = llama_70b_on_16();
    QVERIFY(!check_inference(s, *find_builtin_hardware("h100-sxm")));
    const std::string text = export_serving_command(s, ServingTarget::vllm);
    QCOMPARE(text, std::string("# vLLM serve command: served\n"
                               "# written by Tally (tally export --to vllm)\n"
                               "# one replica of 8 GPUs; the plan serves with 2 of them, each "
                               "started alike\n"
                               // What no flag says, for an import to give the plan back.
                               "# tally: name = served\n"
                               "# tally: cluster.gpu = h100-sxm\n"
                               "# tally: cluster.gpus = 16\n"
                               "# tally: inference.prompt_tokens = 2048\n"
                               "# tally: inference.output_tokens = 512\n"
                               "# tally: inference.concurrency = 64\n"
                               "vllm serve meta-llama/Meta-Llama-3-70B \\\n"
                               "    --tensor-parallel-size 8 \\\n"
                               "    --pipeline-parallel-size 1 \\\n"
                               "    --max-model-len 2560 \\\n"
                               "    --max-num-seqs 64 \\\n"
                               "    --max-num-batched-tokens 4096 \\\n"
                               "    --enable-chunked-prefill \\\n"
                               "    --gpu-memory-utilization 0.9 \\\n"
                               "    --kv-cache-dtype fp8_e4m3 \\\n"
                               "    --dtype bfloat16\n"));
    // Without chunked prefill, and a checkpoint named by the user.
    s.inference.chunked_prefill = false;
    const std::string own = export_serving_command(s, ServingTarget::vllm, "/models/llama3-70b");
    QVERIFY(own.find("vllm serve /models/llama3-70b \\\n") != std::string::npos);
    QVERIFY(own.find("    --no-enable-chunked-prefill \\\n") != std::string::npos);
}

// Mixtral 8x7B on 8 H100, tp 8 with its experts over 8 GPUs and data-parallel attention, in
// SGLang (python/sglang/srt/server_args.py): --ep-size 8, --enable-dp-attention with --dp-size
// 8, SGLang's memory share at tp 8 (mem_fraction_static 0.81); a static batch of 16 is 16
// running requests. The plan is timed as vLLM, which the command says.
void TestLaunchConfig::sglangCommandForExperts() {
    const PlanSpec s = mixtral_with_experts();
    QVERIFY(!check_inference(s, *find_builtin_hardware("h100-sxm")));
    const std::string text = export_serving_command(s, ServingTarget::sglang);
    QCOMPARE(text, std::string("# SGLang launch command: served\n"
                               "# written by Tally (tally export --to sglang)\n"
                               "# the plan is timed as vLLM; this command runs SGLang\n"
                               "# tally: name = served\n"
                               "# tally: cluster.gpu = h100-sxm\n"
                               "# tally: cluster.gpus = 8\n"
                               "# tally: inference.engine = vllm\n"
                               "# tally: inference.prompt_tokens = 1000\n"
                               "# tally: inference.output_tokens = 200\n"
                               "# tally: inference.batch = 16\n"
                               "# tally: inference.concurrency = 0\n"
                               "python -m sglang.launch_server \\\n"
                               "    --model-path mistralai/Mixtral-8x7B-v0.1 \\\n"
                               "    --tp-size 8 \\\n"
                               "    --pp-size 1 \\\n"
                               "    --context-length 1200 \\\n"
                               "    --max-running-requests 16 \\\n"
                               "    --chunked-prefill-size 8192 \\\n"
                               "    --max-prefill-tokens 8192 \\\n"
                               "    --mem-fraction-static 0.81 \\\n"
                               "    --ep-size 8 \\\n"
                               "    --enable-dp-attention \\\n"
                               "    --dp-size 8 \\\n"
                               "    --dtype bfloat16\n"));
}

// The same Mixtral plan with an fp8 KV cache, as trtllm-serve's command
// (tensorrt_llm/commands/serve.py): the PyTorch backend, --max_batch_size 16, --max_num_tokens
// 8192, --max_seq_len 1000 + 200 = 1200, the KV cache's share of the free memory (0.9),
// --ep_size 8; the fp8 cache and data-parallel attention go in the options file the LLM API
// reads (kv_cache_config.dtype, enable_attention_dp), written by the command first, with the
// model's dtype (the LLM API's dtype; "auto" would run whatever the checkpoint holds).
void TestLaunchConfig::trtllmCommandForExperts() {
    PlanSpec s = mixtral_with_experts();
    s.inference.kv_dtype = DType::fp8_e4m3;
    QVERIFY(!check_inference(s, *find_builtin_hardware("h100-sxm")));
    const std::string text = export_serving_command(s, ServingTarget::tensorrt_llm);
    QCOMPARE(text, std::string("# TensorRT-LLM trtllm-serve command: served\n"
                               "# written by Tally (tally export --to tensorrt_llm)\n"
                               "# the plan is timed as vLLM; this command runs TensorRT-LLM\n"
                               "# tally: name = served\n"
                               "# tally: cluster.gpu = h100-sxm\n"
                               "# tally: cluster.gpus = 8\n"
                               "# tally: inference.engine = vllm\n"
                               "# tally: inference.prompt_tokens = 1000\n"
                               "# tally: inference.output_tokens = 200\n"
                               "# tally: inference.batch = 16\n"
                               "# tally: inference.concurrency = 0\n"
                               "cat > tally-trtllm-options.yml <<'EOF'\n"
                               "dtype: bfloat16\n"
                               "kv_cache_config:\n"
                               "  dtype: fp8\n"
                               "enable_attention_dp: true\n"
                               "EOF\n"
                               "trtllm-serve mistralai/Mixtral-8x7B-v0.1 \\\n"
                               "    --backend pytorch \\\n"
                               "    --tp_size 8 \\\n"
                               "    --pp_size 1 \\\n"
                               "    --max_batch_size 16 \\\n"
                               "    --max_num_tokens 8192 \\\n"
                               "    --max_seq_len 1200 \\\n"
                               "    --kv_cache_free_gpu_memory_fraction 0.9 \\\n"
                               "    --ep_size 8 \\\n"
                               "    --enable_chunked_prefill \\\n"
                               "    --extra_llm_api_options tally-trtllm-options.yml\n"));
    // fp8_e5m2 has no TensorRT-LLM cache dtype; fp8 weights come in their checkpoint; an ep
    // that does not divide tp has no --ep_size.
    const auto field = [](const PlanSpec& p, const std::string& checkpoint = {}) {
        try {
            export_serving_command(p, ServingTarget::tensorrt_llm, checkpoint);
        } catch (const SpecError& e) {
            return e.field();
        }
        return std::string("(none)");
    };
    PlanSpec e5m2 = s;
    e5m2.inference.kv_dtype = DType::fp8_e5m2;
    QCOMPARE(field(e5m2), std::string("inference.kv_dtype"));
    PlanSpec fp8 = s;
    fp8.inference.weight_dtype = DType::fp8_e4m3;
    QCOMPARE(field(fp8), std::string("--model"));
    QCOMPARE(field(fp8, "org/mixtral-fp8"), std::string("(none)"));
    PlanSpec three = s;
    three.inference.ep = 3;
    QCOMPARE(field(three), std::string("inference.ep"));
    // TensorRT-LLM runs Ampere and later: a V100 (no bf16 peak) is refused by the GPU.
    PlanSpec volta = served("llama-2-7b");
    volta.cluster.gpu = "v100-sxm2-32gb";
    volta.inference.weight_dtype = DType::fp16;
    volta.inference.kv_dtype = DType::fp16;
    QCOMPARE(field(volta), std::string("cluster.gpu"));
    QVERIFY(export_serving_command(volta, ServingTarget::vllm).find("--dtype float16") !=
            std::string::npos);
}

// DeepSeek-V3's checkpoint holds its weights in fp8 (its config.json quantization_config): an
// fp8 plan is served from it by every engine, without --model; a bf16 plan needs a bf16
// checkpoint named.
void TestLaunchConfig::quantizedPresetCheckpointServesItsOwnDtype() {
    PlanSpec s = served("deepseek-v3");
    s.cluster.gpu = "h200";
    s.cluster.gpus = 8;
    s.inference.tp = 8;
    s.inference.weight_dtype = DType::fp8_e4m3;
    for (const ServingTarget t : serving_targets()) {
        QVERIFY(export_serving_command(s, t).find("deepseek-ai/DeepSeek-V3") != std::string::npos);
    }
    s.inference.weight_dtype = DType::bf16;
    try {
        export_serving_command(s, ServingTarget::vllm);
        QFAIL("a bf16 plan was served from the fp8 checkpoint");
    } catch (const SpecError& e) {
        QCOMPARE(e.field(), std::string("--model"));
        QVERIFY2(std::string(e.what()).find("holds its weights in fp8_e4m3") != std::string::npos,
                 e.what());
    }
    QVERIFY(export_serving_command(s, ServingTarget::vllm, "org/deepseek-v3-bf16")
                .find("--dtype bfloat16") != std::string::npos);
}

// Llama 3 70B at tp 8 x pp 2: one replica of 16 GPUs spans two 8-GPU H100 hosts. SGLang starts
// a process a host (--nnodes 2, each its --node-rank, the first host's --dist-init-addr); vLLM
// runs on a Ray cluster of the two and trtllm-serve under MPI, which the header says.
// A serving command Tally wrote is not a training run's configuration: an import as one says
// so, and where the serving import reads it, rather than that nothing in it was recognised.
void TestLaunchConfig::servingCommandIsNotImported() {
    PlanSpec s = served("llama-3-8b");
    for (const ServingTarget t : serving_targets()) {
        const std::string command = export_serving_command(s, t);
        try {
            import_launch_config(command, "serve.sh", {});
            QFAIL("a serving command was imported");
        } catch (const SpecError& e) {
            QCOMPARE(e.field(), std::string("--from"));
            QVERIFY2(std::string(e.what()).find("a serving engine's command is read as a serving "
                                                "plan") != std::string::npos,
                     e.what());
        }
    }
}

void TestLaunchConfig::servingCommandAcrossHosts() {
    PlanSpec s = served("llama-3-70b");
    s.cluster.gpus = 16;
    s.inference.tp = 8;
    s.inference.pp = 2;
    QVERIFY(!check_inference(s, *find_builtin_hardware("h100-sxm")));
    const std::string sglang = export_serving_command(s, ServingTarget::sglang);
    QVERIFY2(sglang.find("    --nnodes 2 \\\n") != std::string::npos, sglang.c_str());
    QVERIFY(sglang.find("    --node-rank \"${NODE_RANK:?0 to 1}\" \\\n") != std::string::npos);
    QVERIFY(sglang.find("--dist-init-addr \"${MASTER_ADDR:?the first host}:5000\"") !=
            std::string::npos);
    const std::string vllm = export_serving_command(s, ServingTarget::vllm);
    QVERIFY2(vllm.find("# one replica spans 2 hosts of 8 GPUs: start a Ray cluster") !=
                 std::string::npos,
             vllm.c_str());
    const std::string trt = export_serving_command(s, ServingTarget::tensorrt_llm);
    QVERIFY2(trt.find("mpirun -np 16 --hostfile HOSTS trtllm-llmapi-launch trtllm-serve") !=
                 std::string::npos,
             trt.c_str());
    // At tp 8, pp 1 a replica is one host: none of it.
    s.inference.pp = 1;
    QVERIFY(export_serving_command(s, ServingTarget::sglang).find("--nnodes") == std::string::npos);
}

void TestLaunchConfig::servingCommandRefusals() {
    const auto field = [](const PlanSpec& s, ServingTarget t, const std::string& checkpoint = {}) {
        try {
            export_serving_command(s, t, checkpoint);
        } catch (const SpecError& e) {
            return e.field();
        }
        return std::string("(none)");
    };
    PlanSpec mixtral = served("mixtral-8x7b");
    mixtral.cluster.gpus = 8;
    mixtral.inference.tp = 8;
    mixtral.inference.ep = 2;
    // vLLM's expert parallelism spans the whole tp group; SGLang's ep 2 of tp 8 is a flag.
    QCOMPARE(field(mixtral, ServingTarget::vllm), std::string("inference.ep"));
    QCOMPARE(field(mixtral, ServingTarget::sglang), std::string("(none)"));
    PlanSpec fp32 = served("llama-3-8b");
    fp32.inference.kv_dtype = DType::fp32;
    QCOMPARE(field(fp32, ServingTarget::vllm), std::string("inference.kv_dtype"));
    // A model of no preset has no checkpoint Tally can name; one given is used.
    PlanSpec edited = served("llama-3-8b");
    edited.model.layers = 30;
    edited.model.name.clear();
    QCOMPARE(field(edited, ServingTarget::vllm), std::string("--model"));
    QCOMPARE(field(edited, ServingTarget::vllm, "/ckpt"), std::string("(none)"));
    // A model named by a Hugging Face id (a config.json's _name_or_path) is that checkpoint; a
    // name that is no id is not taken for one.
    edited.model.name = "Qwen/Qwen3-8B";
    QVERIFY(export_serving_command(edited, ServingTarget::vllm, "").find("Qwen/Qwen3-8B") !=
            std::string::npos);
    edited.model.name = "Llama 3 8B, 30 layers";
    QCOMPARE(field(edited, ServingTarget::vllm), std::string("--model"));
    // int4 weights come in a quantized checkpoint, not the preset's 16-bit one.
    PlanSpec int4 = served("llama-3-8b");
    int4.inference.weight_dtype = DType::int4;
    QCOMPARE(field(int4, ServingTarget::sglang), std::string("--model"));
    const std::string awq =
        export_serving_command(int4, ServingTarget::sglang, "org/llama-3-8b-awq");
    QVERIFY(awq.find("# int4 weights: SGLang reads their quantization from the checkpoint's "
                     "config\n") != std::string::npos);
    // Beside quantized weights the engine's dtype is the KV cache's (bf16 here).
    QVERIFY2(awq.find("    --dtype bfloat16\n") != std::string::npos, awq.c_str());
    // A 16-bit KV cache is the engine's dtype: fp16 beside bf16 weights has no flag.
    PlanSpec kv16 = served("llama-3-8b");
    kv16.inference.kv_dtype = DType::fp16;
    QCOMPARE(field(kv16, ServingTarget::vllm), std::string("inference.kv_dtype"));
    kv16.inference.weight_dtype = DType::fp16;
    QCOMPARE(field(kv16, ServingTarget::vllm), std::string("(none)"));
    // vLLM's scheduler (vllm/config/scheduler.py) refuses a token budget below max_model_len
    // without chunked prefill (8000 + 1000 = 9000 > 8192), and below max_num_seqs (512 > 256).
    PlanSpec budget = served("llama-3-8b");
    budget.inference.prompt_tokens = 8000;
    budget.inference.output_tokens = 1000;
    budget.inference.chunked_prefill = false;
    budget.inference.max_batched_tokens = 8192;
    QCOMPARE(field(budget, ServingTarget::vllm), std::string("inference.max_batched_tokens"));
    QCOMPARE(field(budget, ServingTarget::sglang), std::string("(none)"));
    budget.inference.max_batched_tokens = 9000;
    QCOMPARE(field(budget, ServingTarget::vllm), std::string("(none)"));
    PlanSpec seqs = served("llama-3-8b");
    seqs.inference.concurrency = 512;
    seqs.inference.max_batched_tokens = 256;
    QCOMPARE(field(seqs, ServingTarget::vllm), std::string("inference.max_batched_tokens"));
}

// What a serving command exports comes back as the plan it was: every engine, a static batch
// and clients in flight, experts and data-parallel attention, fp8 weights from a quantized
// checkpoint, a plan timed as another engine than the command's, a price.
void TestLaunchConfig::servingCommandRoundTrips() {
    std::vector<std::pair<PlanSpec, std::string>> plans;
    PlanSpec llama = llama_70b_on_16();
    llama.cluster.price_per_gpu_hour = 2.5;
    plans.emplace_back(llama, "");
    PlanSpec fp8 = llama;
    fp8.inference.weight_dtype = DType::fp8_e4m3;
    fp8.inference.memory_fraction = 0.95;
    fp8.inference.chunked_prefill = false;
    fp8.inference.max_batched_tokens = 4096;
    fp8.inference.prompt_tokens = 3000;
    fp8.inference.output_tokens = 500;
    plans.emplace_back(fp8, "org/llama-3-70b-fp8");
    PlanSpec mixtral = mixtral_with_experts();
    plans.emplace_back(mixtral, "");
    for (const auto& [plan, checkpoint] : plans) {
        for (const ServingTarget t : serving_targets()) {
            if (t == ServingTarget::vllm &&
                (plan.inference.dp_attention || plan.inference.ep > 1)) {
                continue;  // vLLM has no data-parallel attention (refused by the export)
            }
            PlanSpec as_engine = plan;
            as_engine.inference.engine = t == ServingTarget::vllm     ? ServingEngine::vllm
                                         : t == ServingTarget::sglang ? ServingEngine::sglang
                                                                      : ServingEngine::tensorrt_llm;
            for (const PlanSpec& p : {plan, as_engine}) {
                const std::string command = export_serving_command(p, t, checkpoint);
                const ServingImport r = import_serving_command(command, "serve.sh", {});
                QVERIFY2(r.target == t, command.c_str());
                QVERIFY2(r.spec.model == p.model, command.c_str());
                QCOMPARE(r.spec.name, p.name);
                QCOMPARE(r.spec.cluster.gpu, p.cluster.gpu);
                QCOMPARE(r.spec.cluster.gpus, p.cluster.gpus);
                QVERIFY(r.spec.cluster.price_per_gpu_hour == p.cluster.price_per_gpu_hour);
                PlanSpec want = p;
                want.inference.checkpoint = checkpoint;  // the plan keeps the one it serves
                // A memory share the command's engine does not run under is that engine's
                // default in the command, and the plan's engine's default again on import.
                if (p.inference.engine != as_engine.inference.engine) {
                    want.inference.memory_fraction = std::nullopt;
                }
                QVERIFY2(to_json(r.spec)["inference"] == to_json(want)["inference"],
                         qPrintable(QString::fromStdString(command + "\nread back as\n" +
                                                           to_json(r.spec).dump(2))));
                QVERIFY(r.unknown.empty());
            }
        }
    }
}

// A command written by hand: vLLM serving the Llama 3 70B Instruct tuning on 8 GPUs. Each figure
// is the flag's own: -tp 8 (vLLM's alias of --tensor-parallel-size), the longest sequence 8192
// split as 8192 - 256 = 7936 prompt tokens and Tally's default 256 output tokens, 128 sequences
// a step, an fp8 cache, 0.95 of the memory (not vLLM's default 0.9, so the plan keeps it); one
// replica of tp 8 is 8 GPUs. The checkpoint is the Llama 3 70B preset's, tuned.
void TestLaunchConfig::vllmCommandWrittenByHand() {
    const std::string command =
        "# our production server\n"
        "CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 vllm serve meta-llama/Meta-Llama-3-70B-Instruct \\\n"
        "  -tp 8 --max-model-len 8192 --gpu-memory-utilization=0.95 --kv-cache-dtype fp8 \\\n"
        "  --max-num-seqs 128 --port 8000 --disable-log-requests\n";
    const ServingImport r = import_serving_command(command, "serve.sh", {});
    QVERIFY(r.target == ServingTarget::vllm);
    QVERIFY(r.spec.model == find_model_preset("llama-3-70b")->model);
    const InferenceSpec& in = r.spec.inference;
    QVERIFY(in.engine == ServingEngine::vllm);
    QCOMPARE(in.tp, std::int64_t{8});
    QCOMPARE(in.prompt_tokens, std::int64_t{7936});
    QCOMPARE(in.output_tokens, std::int64_t{256});
    QCOMPARE(in.concurrency, std::int64_t{128});
    QVERIFY(in.kv_dtype == DType::fp8_e4m3);
    QVERIFY(in.weight_dtype == DType::bf16);
    QVERIFY(in.memory_fraction == 0.95);
    QVERIFY(in.chunked_prefill);  // vLLM's V1 engine chunks prompts unless told not to
    QCOMPARE(r.spec.cluster.gpus, std::int64_t{8});
    // --port and --disable-log-requests are read and have no bearing; the GPU, the split of the
    // sequence, the tuned checkpoint and the weights' dtype (auto) are said to be assumed.
    QCOMPARE(r.ignored.size(), std::size_t{2});
    QCOMPARE(r.ignored[1].key, std::string("--disable-log-requests"));
    std::string guesses;
    for (const Text& g : r.guesses) {
        guesses += g.english() + "\n";
    }
    for (const char* said :
         {"cluster.gpu = h100-sxm", "Meta-Llama-3-70B-Instruct is named as a tuned",
          "inference.prompt_tokens = 7936, output_tokens = 256", "inference.weight_dtype = bf16"}) {
        QVERIFY2(guesses.find(said) != std::string::npos, guesses.c_str());
    }
    // A share of 0.9 is vLLM's default: the plan leaves it unset.
    const ServingImport plain = import_serving_command(
        "vllm serve meta-llama/Meta-Llama-3-8B --gpu-memory-utilization 0.9", "s.sh", {});
    QVERIFY(!plain.spec.inference.memory_fraction);
    // Laid over a plan (the window's import), the plan's description of another model goes:
    // the imported plan says where it came from and what it assumed, as the CLI's does.
    PlanSpec base = default_plan_spec();
    base.description = "Llama 3 8B on 4 GPUs, the plan open before";
    ServingImportOptions over;
    over.base = base;
    const ServingImport laid = import_serving_command(command, "serve.sh", over);
    QVERIFY2(laid.spec.description.rfind("Imported from serve.sh as ", 0) == 0,
             laid.spec.description.c_str());
    QVERIFY(laid.spec.description.find("Llama 3 8B on 4 GPUs") == std::string::npos);
    QVERIFY(laid.spec.description.find("Assumed: cluster.gpu") != std::string::npos);
}

// SGLang serving DeepSeek-V3 (its checkpoint holds fp8 weights) over 8 GPUs with data-parallel
// attention (--dp 8 beside --enable-dp-attention splits the tp group: no more replicas), and
// Llama 3 8B in 2 replicas of tp 2 (--dp-size 2: 2 x 2 = 4 GPUs) with prompts unchunked
// (--chunked-prefill-size -1) in prefill batches of 16384 tokens.
void TestLaunchConfig::sglangCommandWrittenByHand() {
    const ServingImport ds = import_serving_command(
        "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 "
        "--enable-dp-attention --dp 8 --trust-remote-code --mem-fraction-static 0.8",
        "ds.sh", {});
    QVERIFY(ds.spec.inference.engine == ServingEngine::sglang);
    QVERIFY(ds.spec.inference.weight_dtype == DType::fp8_e4m3);
    QVERIFY(ds.spec.inference.dp_attention);
    QCOMPARE(ds.spec.inference.tp, std::int64_t{8});
    QCOMPARE(ds.spec.cluster.gpus, std::int64_t{8});
    QVERIFY(ds.spec.inference.memory_fraction == 0.8);  // SGLang's default at tp 8 is 0.81
    const ServingImport llama = import_serving_command(
        "python -m sglang.launch_server --model meta-llama/Meta-Llama-3-8B --tp-size 2 "
        "--dp-size 2 --chunked-prefill-size -1 --max-prefill-tokens 16384 "
        "--context-length 4096 --max-running-requests 32 --mem-fraction-static 0.87",
        "llama.sh", {});
    QCOMPARE(llama.spec.cluster.gpus, std::int64_t{4});
    QVERIFY(!llama.spec.inference.chunked_prefill);
    QCOMPARE(llama.spec.inference.max_batched_tokens, std::int64_t{16384});
    QCOMPARE(llama.spec.inference.concurrency, std::int64_t{32});
    QVERIFY(!llama.spec.inference.memory_fraction);  // 0.87: SGLang's default at tp 2
}

// trtllm-serve with its options file written by the same script: the file's fp8 cache, fp16
// model dtype and memory share are read as if they were flags; chunked prefill is off unless
// switched on (serve.py's flag).
void TestLaunchConfig::trtllmCommandWithItsOptionsFile() {
    const std::string command =
        "cat > extra.yml <<EOF\n"
        "dtype: float16\n"
        "kv_cache_config:\n"
        "  dtype: fp8\n"
        "  free_gpu_memory_fraction: 0.85\n"
        "EOF\n"
        "trtllm-serve meta-llama/Llama-2-7b-hf --tp_size 2 --max_batch_size 64 "
        "--max_num_tokens 4096 --max_seq_len 3072 --extra_llm_api_options extra.yml\n";
    const ServingImport r = import_serving_command(command, "t.sh", {});
    const InferenceSpec& in = r.spec.inference;
    QVERIFY(in.engine == ServingEngine::tensorrt_llm);
    QVERIFY(in.weight_dtype == DType::fp16);
    QVERIFY(in.kv_dtype == DType::fp8_e4m3);
    QVERIFY(in.memory_fraction == 0.85);
    QVERIFY(!in.chunked_prefill);
    QCOMPARE(in.concurrency, std::int64_t{64});
    QCOMPARE(in.max_batched_tokens, std::int64_t{4096});
    QCOMPARE(in.prompt_tokens + in.output_tokens, std::int64_t{3072});
    const auto line = std::find_if(r.read.begin(), r.read.end(), [](const LaunchSetting& s) {
        return s.key == "extra.yml: kv_cache_config.dtype";
    });
    QVERIFY(line != r.read.end());
    QCOMPARE(line->line, 4);  // the file's line in the script
}

// What a first hour with real commands found: a comment naming another engine does not decide
// the engine; the options file written as `cat <<EOF > ./extra.yml` is read; trtllm-serve's own
// option names (--tensor_parallel_size, --free_gpu_memory_fraction) beside their aliases; vLLM's
// human-readable --max-model-len (32k = 32,000, 32K = 32,768); gpt-oss-120b's checkpoint in
// MXFP4 (its model card, sec. 2); the Instruct checkpoint kept for the export.
void TestLaunchConfig::servingCommandsAsTeamsWriteThem() {
    const ServingImport commented = import_serving_command(
        "# this replaces our old trtllm-serve deployment\n"
        "vllm serve meta-llama/Meta-Llama-3-8B-Instruct -tp 1 --max-model-len 32k\n",
        "s.sh", {});
    QVERIFY(commented.target == ServingTarget::vllm);
    QCOMPARE(commented.spec.inference.prompt_tokens + commented.spec.inference.output_tokens,
             std::int64_t{32000});
    QCOMPARE(commented.spec.inference.checkpoint,
             std::string("meta-llama/Meta-Llama-3-8B-Instruct"));
    QVERIFY(export_serving_command(commented.spec, ServingTarget::vllm)
                .find("vllm serve meta-llama/Meta-Llama-3-8B-Instruct") != std::string::npos);
    const ServingImport binary = import_serving_command(
        "vllm serve meta-llama/Meta-Llama-3-8B --max-model-len 32K", "s.sh", {});
    QCOMPARE(binary.spec.inference.prompt_tokens + binary.spec.inference.output_tokens,
             std::int64_t{32768});
    const ServingImport trt = import_serving_command(
        "cat <<EOF > ./extra.yml\n"
        "kv_cache_config:\n"
        "  free_gpu_memory_fraction: 0.7\n"
        "  enable_block_reuse: false\n"
        "cuda_graph_config:\n"
        "  max_batch_size: 64\n"
        "EOF\n"
        "trtllm-serve meta-llama/Llama-2-7b-hf --tensor_parallel_size 2 "
        "--extra_llm_api_options extra.yml\n",
        "t.sh", {});
    QCOMPARE(trt.spec.inference.tp, std::int64_t{2});
    QVERIFY(trt.spec.inference.memory_fraction == 0.7);
    QVERIFY(import_serving_command("trtllm-serve meta-llama/Llama-2-7b-hf "
                                   "--free_gpu_memory_fraction 0.8",
                                   "t.sh", {})
                .spec.inference.memory_fraction == 0.8);
    const ServingImport oss = import_serving_command(
        "vllm serve openai/gpt-oss-120b --tensor-parallel-size 2", "o.sh", {});
    QVERIFY(oss.spec.inference.weight_dtype == DType::mxfp4);
    QVERIFY(import_serving_command("vllm serve meta-llama/Meta-Llama-3-8B --quantization mxfp4",
                                   "m.sh", {})
                .spec.inference.weight_dtype == DType::mxfp4);
    // A switch given a value (argparse's BooleanOptionalAction takes one).
    QVERIFY(!import_serving_command(
                 "vllm serve meta-llama/Meta-Llama-3-8B --enable-chunked-prefill=False", "c.sh", {})
                 .spec.inference.chunked_prefill);
    // --enforce-eager runs without CUDA graphs, which the plan does not time: said.
    const ServingImport eager =
        import_serving_command("vllm serve meta-llama/Meta-Llama-3-8B --enforce-eager", "e.sh", {});
    QVERIFY(std::any_of(eager.guesses.begin(), eager.guesses.end(), [](const Text& g) {
        return g.english().find("--enforce-eager is not modelled") != std::string::npos;
    }));
    // Meta's old repository name of Llama 3.1 (Meta-Llama-3.1-*, redirected by the hub to
    // Llama-3.1-*) is the same checkpoint: the 3.1 preset, its 131,072-token context.
    QCOMPARE(import_serving_command("vllm serve meta-llama/Meta-Llama-3.1-70B-Instruct", "o.sh", {})
                 .spec.model.context_length,
             std::int64_t{131072});
    // Prefix caching bears on the run (a cached prefix is not prefilled again) but how much is
    // the requests': said as not modelled, not listed as without bearing. So is SGLang's.
    for (const auto& [command, flag] :
         {std::pair{"vllm serve meta-llama/Meta-Llama-3-8B --enable-prefix-caching",
                    "--enable-prefix-caching"},
          std::pair{"python -m sglang.launch_server --model-path meta-llama/Meta-Llama-3-8B "
                    "--disable-radix-cache",
                    "--disable-radix-cache"}}) {
        const ServingImport cached = import_serving_command(command, "p.sh", {});
        QVERIFY2(std::any_of(cached.guesses.begin(), cached.guesses.end(),
                             [&](const Text& g) {
                                 return g.english().find(std::string(flag) + " is not modelled") !=
                                        std::string::npos;
                             }),
                 flag);
        QVERIFY2(std::none_of(cached.ignored.begin(), cached.ignored.end(),
                              [&](const LaunchSetting& l) { return l.key == flag; }),
                 flag);
    }
}

// Each refusal names the flag (or the model) and what it takes.
void TestLaunchConfig::servingImportRefusals() {
    const auto field = [](const std::string& command, ServingImportOptions options = {}) {
        try {
            import_serving_command(command, "s.sh", options);
        } catch (const SpecError& e) {
            return e.field();
        }
        return std::string("(none)");
    };
    const std::string llama = "vllm serve meta-llama/Meta-Llama-3-8B ";
    QCOMPARE(field(llama + "--bogus 1"), std::string("--bogus"));
    ServingImportOptions lenient;
    lenient.allow_unknown = true;
    QCOMPARE(field(llama + "--bogus 1", lenient), std::string("(none)"));
    QCOMPARE(field(llama + "--gpu-memory-utilization 1.5"),
             std::string("--gpu-memory-utilization"));
    QCOMPARE(field(llama + "-tp two"), std::string("-tp"));
    QCOMPARE(field(llama + "-tp 0"), std::string("-tp"));
    QCOMPARE(field(llama + "--quantization bitsandbytes"), std::string("--quantization"));
    QCOMPARE(field(llama + "--dtype float32"), std::string("--dtype"));
    QCOMPARE(field(llama + "--kv-cache-dtype int8"), std::string("--kv-cache-dtype"));
    QCOMPARE(field(llama + "--max-model-len"), std::string("--max-model-len"));
    // A layout `tally infer` refuses, named by the flag that set it: Llama 3 8B's 32 heads do
    // not divide over 3 GPUs.
    QCOMPARE(field(llama + "-tp 3"), std::string("-tp (inference.tp)"));
    // vLLM's experts over tp x dp GPUs: Tally's expert parallelism spans the tp group.
    QCOMPARE(field("vllm serve mistralai/Mixtral-8x7B-v0.1 -tp 4 -dp 2 --enable-expert-parallel"),
             std::string("-dp"));  // the flag as written
    QCOMPARE(field("vllm serve some/other-model -tp 2"), std::string("model (line 1)"));
    ServingImportOptions with_config;
    with_config.model = find_model_preset("llama-3-8b")->model;
    QCOMPARE(field("vllm serve some/other-model -tp 2", with_config), std::string("(none)"));
    QCOMPARE(field("echo hello"), std::string("--from"));
    // A here-document never closed swallows the command after it.
    QCOMPARE(field("cat > x.yml <<'EOF'\ndtype: auto\ntrtllm-serve meta-llama/Llama-2-7b-hf\n"),
             std::string("line 1"));
    QCOMPARE(field("# tally: cluster.gpus = many\n" + llama), std::string("tally: cluster.gpus"));
}

// Past the model's context (Llama 3 8B: 8192) both engines refuse the length unless a variable
// allows it; the command sets it and says why.
void TestLaunchConfig::servingCommandPastTheContext() {
    PlanSpec s = served("llama-3-8b");
    s.inference.prompt_tokens = 16000;
    s.inference.output_tokens = 256;
    const std::string vllm = export_serving_command(s, ServingTarget::vllm);
    QVERIFY2(vllm.find("\nVLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve ") != std::string::npos,
             vllm.c_str());
    QVERIFY(vllm.find("past the model's context of 8192") != std::string::npos);
    const std::string sglang = export_serving_command(s, ServingTarget::sglang);
    QVERIFY2(sglang.find("\nSGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 python -m "
                         "sglang.launch_server") != std::string::npos,
             sglang.c_str());
    s.inference.prompt_tokens = 4096;
    QVERIFY(export_serving_command(s, ServingTarget::vllm).find("ALLOW_LONG") == std::string::npos);
}

// Llama 3 70B in fp8 (70.55e9 parameters: 70.6 GB) on one 80 GB H100 fits the GPU, but vLLM's
// share (0.9 x 80 = 72 GB) leaves its KV cache less than one sequence: vLLM stops at start-up.
// At tp 2 each GPU holds half the weights and the cache has room.
void TestLaunchConfig::servingCommandSaysWhenTheCacheHoldsNothing() {
    PlanSpec s = served("llama-3-70b");
    s.inference.weight_dtype = DType::fp8_e4m3;
    s.inference.prompt_tokens = 1024;
    s.inference.output_tokens = 256;
    s.inference.concurrency = 64;
    const auto says = [](const std::string& text) {
        return text.find("the engine would not start") != std::string::npos;
    };
    QVERIFY(says(export_serving_command(s, ServingTarget::vllm)));
    s.cluster.gpus = 2;
    s.inference.tp = 2;
    QVERIFY(!says(export_serving_command(s, ServingTarget::vllm)));
}

#include "tst_launch_config.moc"
