#include "planner/io/launch/serving_launch.h"

#include <fmt/core.h>

#include <algorithm>
#include <regex>
#include <utility>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/io/launch/launch_fields.h"
#include "planner/io/presets.h"
#include "planner/serving/inference.h"
#include "planner/serving/serving_engine.h"

namespace tally {

namespace {

// One flag and its value ("" for a switch), in the order the command writes them.
using Flags = std::vector<std::pair<std::string, std::string>>;

std::string dtype_flag(DType d) {
    return d == DType::fp16 ? "float16" : "bfloat16";
}

// The command's lines: the program, then one flag a line, continued with a backslash.
std::string command_text(const std::string& program, const Flags& flags) {
    std::string out = program;
    for (const auto& [flag, value] : flags) {
        out += " \\\n    " + flag + (value.empty() ? std::string() : " " + value);
    }
    return out + "\n";
}

std::string_view engine_title(ServingEngine e) {
    switch (e) {
        case ServingEngine::vllm:
            return "vLLM";
        case ServingEngine::tensorrt_llm:
            return "TensorRT-LLM";
        case ServingEngine::sglang:
            return "SGLang";
        case ServingEngine::gpt_fast:
            return "gpt-fast";
    }
    return "?";
}

}  // namespace

const std::vector<ServingTarget>& serving_targets() {
    static const std::vector<ServingTarget> all = {ServingTarget::vllm, ServingTarget::sglang,
                                                   ServingTarget::tensorrt_llm};
    return all;
}

std::string_view to_string(ServingTarget target) {
    switch (target) {
        case ServingTarget::vllm:
            return "vllm";
        case ServingTarget::sglang:
            return "sglang";
        case ServingTarget::tensorrt_llm:
            return "tensorrt_llm";
    }
    return "vllm";
}

std::optional<ServingTarget> serving_target_from_string(std::string_view name) {
    for (ServingTarget t : serving_targets()) {
        if (to_string(t) == name) {
            return t;
        }
    }
    return std::nullopt;
}

std::string_view serving_target_title(ServingTarget target) {
    switch (target) {
        case ServingTarget::vllm:
            return QT_TRANSLATE_NOOP("tally::launch", "vLLM serve command");
        case ServingTarget::sglang:
            return QT_TRANSLATE_NOOP("tally::launch", "SGLang launch command");
        case ServingTarget::tensorrt_llm:
            return QT_TRANSLATE_NOOP("tally::launch", "TensorRT-LLM trtllm-serve command");
    }
    return "";
}

std::optional<std::string> preset_checkpoint(const ModelSpec& model) {
    for (const ModelPreset& p : model_presets()) {
        if (!p.checkpoint.empty() && p.model == model) {
            return p.checkpoint;
        }
    }
    return std::nullopt;
}

std::string export_serving_command(const PlanSpec& spec, ServingTarget target,
                                   const std::string& given_checkpoint) {
    // The checkpoint: the one given, else the plan's own (inference.checkpoint), else the
    // preset's (below).
    const std::string& checkpoint =
        given_checkpoint.empty() ? spec.inference.checkpoint : given_checkpoint;
    const InferenceSpec& in = spec.inference;
    const bool vllm = target == ServingTarget::vllm;
    const bool trtllm = target == ServingTarget::tensorrt_llm;
    const ServingEngine engine = vllm     ? ServingEngine::vllm
                                 : trtllm ? ServingEngine::tensorrt_llm
                                          : ServingEngine::sglang;
    const std::string_view title = serving_target_title(target);
    // Weights the engine cannot quantize as it loads them come quantized in their checkpoint,
    // which the preset's (16-bit) is not. vLLM and SGLang quantize to fp8 as they load
    // (--quantization fp8); trtllm-serve reads every quantization from the checkpoint (its
    // PyTorch backend takes ModelOpt's quantized checkpoints).
    const bool quantized_checkpoint = in.weight_dtype != DType::bf16 &&
                                      in.weight_dtype != DType::fp16 &&
                                      (trtllm || in.weight_dtype != DType::fp8_e4m3);
    // The preset's checkpoint holds its weights in 16 bits, or quantized (DeepSeek-V3 in fp8):
    // it serves the plan only where that is the plan's weight dtype.
    std::optional<DType> preset_dtype;
    for (const ModelPreset& p : model_presets()) {
        if (!p.checkpoint.empty() && p.model == spec.model) {
            preset_dtype = p.checkpoint_dtype;
        }
    }
    if (checkpoint.empty() && preset_dtype && *preset_dtype != in.weight_dtype) {
        throw SpecError("--model", "",
                        TALLY_TEXT("tally::launch",
                                   "a checkpoint of the model in %1, a Hugging Face id or a local "
                                   "path: the preset's checkpoint holds its weights in %2")
                            .arg(std::string(to_string(in.weight_dtype)))
                            .arg(std::string(to_string(*preset_dtype))));
    }
    if (checkpoint.empty() && quantized_checkpoint && !preset_dtype) {
        throw SpecError("--model", "",
                        TALLY_TEXT("tally::launch",
                                   "a checkpoint of the model quantized to %1 (AWQ or GPTQ for "
                                   "int4 and int8), a Hugging Face id or a local path: the "
                                   "preset's checkpoint is 16-bit")
                            .arg(std::string(to_string(in.weight_dtype))));
    }
    if (trtllm) {
        // TensorRT-LLM runs Ampere and later parts (its support matrix), each of which has a
        // bf16 peak; the V100 and T4 have none.
        if (const HardwareProfile* hw = find_builtin_hardware(spec.cluster.gpu);
            hw != nullptr && !hw->supports(ComputeType::bf16)) {
            throw SpecError("cluster.gpu", spec.cluster.gpu,
                            TALLY_TEXT("tally::launch",
                                       "an Ampere or later GPU for TensorRT-LLM, which does not "
                                       "run %1")
                                .arg(hw->name));
        }
    }
    std::string model = checkpoint;
    if (model.empty()) {
        model = preset_checkpoint(spec.model).value_or("");
    }
    // A model read from a config.json is named by its _name_or_path: where that is a Hugging
    // Face id (owner/name, the characters the Hub allows), it is the checkpoint the config came
    // with, which the engine downloads.
    if (model.empty()) {
        static const std::regex hub_id(
            R"(^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$)");
        if (std::regex_match(spec.model.name, hub_id)) {
            model = spec.model.name;
        }
    }
    if (model.empty()) {
        throw SpecError("--model", "",
                        TALLY_TEXT("tally::launch",
                                   "the model's checkpoint, a Hugging Face id or a "
                                   "local path: the plan's model is no shipped "
                                   "preset's, and its name is no Hugging Face id, so Tally "
                                   "cannot name its weights"));
    }

    // The KV cache: the model's dtype ("auto") or fp8 (vLLM's --kv-cache-dtype and SGLang's take
    // auto, fp8_e4m3, fp8_e5m2; vllm/config/cache.py CacheDType, sglang server_args.py). A 16-bit
    // cache is the engine's dtype (--dtype), so it must be the 16-bit weights' own.
    const bool sixteen_bit_weights =
        in.weight_dtype == DType::bf16 || in.weight_dtype == DType::fp16;
    std::string kv;
    switch (in.kv_dtype) {
        case DType::bf16:
        case DType::fp16:
            if (sixteen_bit_weights && in.kv_dtype != in.weight_dtype) {
                throw SpecError(
                    "inference.kv_dtype", std::string(to_string(in.kv_dtype)),
                    TALLY_TEXT("tally::launch",
                               "%1 (the weights' dtype), fp8_e4m3 or fp8_e5m2: %2 keeps a 16-bit "
                               "KV cache in the model's dtype (--kv-cache-dtype auto)")
                        .arg(std::string(to_string(in.weight_dtype)))
                        .arg(std::string(engine_title(engine))));
            }
            break;
        case DType::fp8_e4m3:
            kv = "fp8_e4m3";
            break;
        case DType::fp8_e5m2:
            if (trtllm) {
                // kv_cache_config.dtype takes "auto" or "fp8" (e4m3).
                throw SpecError("inference.kv_dtype", "fp8_e5m2",
                                TALLY_TEXT("tally::launch",
                                           "bf16, fp16 or fp8_e4m3 for TensorRT-LLM: its KV "
                                           "cache is the model's dtype or fp8 (e4m3)"));
            }
            kv = "fp8_e5m2";
            break;
        default:
            throw SpecError("inference.kv_dtype", std::string(to_string(in.kv_dtype)),
                            TALLY_TEXT("tally::launch",
                                       "bf16, fp16, fp8_e4m3 or fp8_e5m2: the KV cache dtypes "
                                       "%1 takes (--kv-cache-dtype)")
                                .arg(std::string(engine_title(engine))));
    }
    if (vllm && in.ep > 1 && in.ep != in.tp) {
        // vLLM's --enable-expert-parallel puts the experts on every GPU of the tensor-parallel
        // (times data-parallel) group instead of splitting each expert over them.
        throw SpecError("inference.ep", std::to_string(in.ep),
                        TALLY_TEXT("tally::launch",
                                   "1 or inference.tp (%1) for vLLM: its expert parallelism "
                                   "(--enable-expert-parallel) spans the tensor-parallel group")
                            .arg(in.tp));
    }
    if (trtllm && in.ep > 1 && in.tp % in.ep != 0) {
        throw SpecError("inference.ep", std::to_string(in.ep),
                        TALLY_TEXT("tally::launch",
                                   "a divisor of inference.tp (%1) for TensorRT-LLM: its expert "
                                   "parallelism (--ep_size) splits the tensor-parallel group")
                            .arg(in.tp));
    }
    if (vllm && in.dp_attention) {
        throw SpecError("inference.dp_attention", "true",
                        TALLY_TEXT("tally::launch",
                                   "false for vLLM: its data-parallel attention runs as "
                                   "--data-parallel-size ranks with --enable-expert-parallel, "
                                   "each rank an engine with its own scheduler, which this "
                                   "export does not write; SGLang's --enable-dp-attention is the "
                                   "one it writes"));
    }

    const std::int64_t context = in.prompt_tokens + in.output_tokens;
    const std::int64_t sequences = in.concurrency > 0 ? in.concurrency : in.batch;
    if (vllm) {
        // vLLM's scheduler refuses to start with a step's token budget below the longest
        // sequence when prompts are not chunked, or below the sequences a step runs
        // (vllm/config/scheduler.py, SchedulerConfig: "max_num_batched_tokens (...) is smaller
        // than max_model_len", "... must be greater than or equal to max_num_seqs").
        if (!in.chunked_prefill && in.max_batched_tokens < context) {
            throw SpecError(
                "inference.max_batched_tokens", std::to_string(in.max_batched_tokens),
                TALLY_TEXT("tally::launch",
                           "at least prompt + output (%1 tokens, --max-model-len) with chunked "
                           "prefill off: vLLM refuses a smaller --max-num-batched-tokens")
                    .arg(context));
        }
        if (in.max_batched_tokens < sequences) {
            throw SpecError(
                "inference.max_batched_tokens", std::to_string(in.max_batched_tokens),
                TALLY_TEXT("tally::launch",
                           "at least the %1 sequences a step runs (--max-num-seqs): vLLM refuses "
                           "a smaller --max-num-batched-tokens")
                    .arg(sequences));
        }
    }
    // The plan's memory share is its engine's setting; another engine's means another share of
    // the memory, so that engine's default is written instead, and said.
    std::vector<std::string> notes;
    InferenceSpec as_run = in;
    as_run.engine = engine;
    if (in.memory_fraction && in.engine != engine) {
        as_run.memory_fraction.reset();
        notes.push_back(fmt::format(
            "the plan's memory share {} is {}'s setting; the command keeps {}'s default",
            *in.memory_fraction, engine_title(in.engine), engine_title(engine)));
    }
    const KvPool pool = kv_pool(as_run);
    Flags flags;
    if (vllm) {
        // vllm serve's engine arguments (vllm/engine/arg_utils.py, EngineArgs).
        flags = {
            {"--tensor-parallel-size", std::to_string(in.tp)},
            {"--pipeline-parallel-size", std::to_string(in.pp)},
            {"--max-model-len", std::to_string(context)},
            {"--max-num-seqs", std::to_string(sequences)},
            {"--max-num-batched-tokens", std::to_string(in.max_batched_tokens)},
            {in.chunked_prefill ? "--enable-chunked-prefill" : "--no-enable-chunked-prefill", ""},
            {"--gpu-memory-utilization", fmt::format("{}", pool.fraction)}};
        if (in.ep > 1) {
            flags.push_back({"--enable-expert-parallel", ""});
        }
        if (!kv.empty()) {
            flags.push_back({"--kv-cache-dtype", kv});
        }
    } else if (trtllm) {
        // trtllm-serve's options (tensorrt_llm/commands/serve.py): the PyTorch backend, the
        // sequences a step schedules, the tokens a step takes, the longest sequence, and the
        // share of the memory free after the weights that the KV cache takes.
        flags = {{"--backend", "pytorch"},
                 {"--tp_size", std::to_string(in.tp)},
                 {"--pp_size", std::to_string(in.pp)},
                 {"--max_batch_size", std::to_string(sequences)},
                 {"--max_num_tokens", std::to_string(in.max_batched_tokens)},
                 {"--max_seq_len", std::to_string(context)},
                 {"--kv_cache_free_gpu_memory_fraction", fmt::format("{}", pool.fraction)}};
        if (in.ep > 1) {
            flags.push_back({"--ep_size", std::to_string(in.ep)});
        }
        if (in.chunked_prefill) {
            flags.push_back({"--enable_chunked_prefill", ""});
        }
    } else {
        // SGLang's server arguments (python/sglang/srt/server_args.py, ServerArgs); a chunk size
        // of -1 turns chunked prefill off.
        flags = {{"--model-path", model},
                 {"--tp-size", std::to_string(in.tp)},
                 {"--pp-size", std::to_string(in.pp)},
                 {"--context-length", std::to_string(context)},
                 {"--max-running-requests", std::to_string(sequences)},
                 {"--chunked-prefill-size",
                  in.chunked_prefill ? std::to_string(in.max_batched_tokens) : "-1"},
                 // The tokens a prefill batch takes, chunked or not (default 16384).
                 {"--max-prefill-tokens", std::to_string(in.max_batched_tokens)},
                 {"--mem-fraction-static", fmt::format("{}", pool.fraction)}};
        if (in.ep > 1) {
            flags.push_back({"--ep-size", std::to_string(in.ep)});
        }
        if (in.dp_attention) {
            flags.push_back({"--enable-dp-attention", ""});
            flags.push_back({"--dp-size", std::to_string(in.tp)});
        }
        if (!kv.empty()) {
            flags.push_back({"--kv-cache-dtype", kv});
        }
    }
    // The weights: 16-bit as the engine's dtype; fp8 quantized by the engine as it loads them
    // (both engines' --quantization fp8); the others come quantized in their checkpoint, whose
    // config says how, and the engine reads it from there.
    switch (in.weight_dtype) {
        case DType::bf16:
        case DType::fp16:
            if (trtllm) {
                break;  // the options file's dtype (below): trtllm-serve has no dtype option
            }
            flags.push_back({"--dtype", dtype_flag(in.weight_dtype)});
            break;
        case DType::fp8_e4m3:
            if (trtllm) {
                notes.push_back(
                    "fp8 weights: TensorRT-LLM reads their quantization from the "
                    "checkpoint's config");
                break;
            }
            flags.push_back({"--quantization", "fp8"});
            break;
        default:
            notes.push_back(
                fmt::format("{} weights: {} reads their quantization from the checkpoint's config",
                            to_string(in.weight_dtype), engine_title(engine)));
            break;
    }
    // Beside weights that are not 16-bit, the engine's dtype is the 16-bit KV cache's.
    if (!trtllm && !sixteen_bit_weights &&
        (in.kv_dtype == DType::bf16 || in.kv_dtype == DType::fp16)) {
        flags.push_back({"--dtype", dtype_flag(in.kv_dtype)});
    }
    // What trtllm-serve takes only in its options file (--extra_llm_api_options, a YAML the LLM
    // API reads over the flags): the model's 16-bit dtype (dtype; "auto" would run whatever the
    // checkpoint holds), an fp8 KV cache (kv_cache_config.dtype) and data-parallel attention
    // (enable_attention_dp). The command writes the file beside it first.
    std::string options_file;
    if (trtllm) {
        std::string yaml;
        if (sixteen_bit_weights) {
            yaml += "dtype: " + dtype_flag(in.weight_dtype) + "\n";
        }
        if (!kv.empty()) {
            yaml += "kv_cache_config:\n  dtype: fp8\n";
        }
        if (in.dp_attention) {
            yaml += "enable_attention_dp: true\n";
        }
        if (!yaml.empty()) {
            options_file = "cat > tally-trtllm-options.yml <<'EOF'\n" + yaml + "EOF\n";
            flags.push_back({"--extra_llm_api_options", "tally-trtllm-options.yml"});
        }
    }
    if (in.engine != engine) {
        notes.push_back(fmt::format("the plan is timed as {}; this command runs {}",
                                    engine_title(in.engine), engine_title(engine)));
    }
    // A replica larger than one host: each engine's way of spanning hosts.
    const std::int64_t per_host = launch::host_gpus(spec);
    const std::int64_t replica_gpus = in.tp * in.pp;
    if (replica_gpus > per_host) {
        const std::int64_t hosts = (replica_gpus + per_host - 1) / per_host;
        if (vllm) {
            // vLLM runs a replica over hosts on a Ray cluster (its distributed serving docs).
            notes.push_back(fmt::format(
                "one replica spans {} hosts of {} GPUs: start a Ray cluster on them (ray start "
                "--head on one, ray start --address HEAD:6379 on the others) and run this on the "
                "head",
                hosts, per_host));
        } else if (trtllm) {
            // trtllm-serve over hosts runs under MPI through trtllm-llmapi-launch.
            notes.push_back(fmt::format(
                "one replica spans {} hosts of {} GPUs: run it under MPI across them, {} ranks "
                "(mpirun -np {} --hostfile HOSTS trtllm-llmapi-launch trtllm-serve ...)",
                hosts, per_host, replica_gpus, replica_gpus));
        } else {
            // SGLang starts one process a host, told the hosts, its rank and the first host's
            // address (server_args.py: nnodes, node_rank, dist_init_addr).
            flags.push_back({"--nnodes", std::to_string(hosts)});
            flags.push_back(
                {"--node-rank", "\"${NODE_RANK:?0 to " + std::to_string(hosts - 1) + "}\""});
            flags.push_back({"--dist-init-addr", "\"${MASTER_ADDR:?the first host}:5000\""});
            notes.push_back(fmt::format(
                "one replica spans {} hosts of {} GPUs: run this on each, with NODE_RANK 0 to {} "
                "and MASTER_ADDR the address of the host of rank 0",
                hosts, per_host, hosts - 1));
        }
    }
    const std::int64_t replicas = spec.cluster.gpus / (in.tp * in.pp);
    if (replicas > 1) {
        notes.push_back(fmt::format(
            "one replica of {} GPU{}; the plan serves with {} of them, each started alike",
            in.tp * in.pp, in.tp * in.pp == 1 ? "" : "s", replicas));
    }
    if (in.host_step_s) {
        notes.push_back(fmt::format("the plan adds {} s of host time a step, which no flag sets",
                                    *in.host_step_s));
    }
    // Not one sequence beside the weights: the engine stops at start-up, out of memory.
    if (const HardwareProfile* hw = find_builtin_hardware(spec.cluster.gpu);
        hw != nullptr && !check_inference(spec, *hw) && max_serving_batch(spec, *hw) == 0) {
        const ServingMemory one = serving_memory(spec, *hw, 1);
        notes.push_back(fmt::format(
            "this plan does not fit the GPU's memory: the weights and one sequence take {:.2f} GB "
            "a GPU of {:.2f} GB at tp {}; the engine would not start",
            one.total_bytes / 1e9, hw->memory_bytes / 1e9, in.tp));
    }

    // A pool share that leaves the KV cache less than one sequence: the engine refuses to start
    // (it finds no memory for the cache blocks), though the GPU holds the weights.
    if (const HardwareProfile* hw = find_builtin_hardware(spec.cluster.gpu);
        hw != nullptr && max_serving_batch(spec, *hw) > 0) {
        const ServingMemory one = serving_memory(spec, *hw, 1);
        const double pool_bytes = std::max(
            0.0, kv_pool_bytes(pool, one.capacity_bytes, one.weights_bytes, one.activation_bytes));
        if (pool_bytes < one.kv_cache_bytes) {
            notes.push_back(fmt::format(
                "the engine's KV cache ({}) gets {:.2f} GB a GPU, less than one sequence of {} "
                "tokens ({:.2f} GB): the engine would not start; give the weights more GPUs "
                "(tp) or fewer bytes",
                kv_pool_setting(pool), pool_bytes / 1e9, context, one.kv_cache_bytes / 1e9));
        }
    }
    // Past the model's context the engines refuse --max-model-len / --context-length unless an
    // environment variable allows it (vLLM's VLLM_ALLOW_LONG_MAX_MODEL_LEN, vllm/envs.py;
    // SGLang's SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN, its model config).
    std::string program = vllm     ? "vllm serve " + model
                          : trtllm ? "trtllm-serve " + model
                                   : "python -m sglang.launch_server";
    if (trtllm && spec.model.context_length > 0 && context > spec.model.context_length) {
        notes.push_back(fmt::format(
            "prompt + output = {} tokens is past the model's context of {}: the model was not "
            "trained on sequences this long",
            context, spec.model.context_length));
    } else if (spec.model.context_length > 0 && context > spec.model.context_length) {
        program = std::string(vllm ? "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 "
                                   : "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 ") +
                  program;
        notes.push_back(fmt::format(
            "prompt + output = {} tokens is past the model's context of {}: the engine allows "
            "it only with the variable the command sets, and the model was not trained on "
            "sequences this long",
            context, spec.model.context_length));
    }

    std::string out =
        fmt::format("# {}: {}\n# written by Tally (tally export --to {})\n", title,
                    spec.name.empty() ? std::string("this plan") : spec.name, to_string(target));
    for (const std::string& note : notes) {
        out += "# " + note + "\n";
    }
    // What the command cannot say, for `tally import` to give the plan back as it went: the
    // plan's name and GPU, the prompt and output lengths (the command holds their sum), and
    // whether its sequences are a static batch or clients in flight.
    std::string name = spec.name;
    std::replace_if(
        name.begin(), name.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    if (!name.empty()) {
        out += "# tally: name = " + name + "\n";
    }
    // The model's preset, where the command serves another checkpoint of it (a quantized one).
    for (const ModelPreset& p : model_presets()) {
        if (p.model == spec.model && p.checkpoint != model) {
            out += "# tally: model.preset = " + p.id + "\n";
            break;
        }
    }
    out += fmt::format("# tally: cluster.gpu = {}\n# tally: cluster.gpus = {}\n", spec.cluster.gpu,
                       spec.cluster.gpus);
    if (spec.cluster.price_per_gpu_hour) {
        out += fmt::format("# tally: cluster.price_per_gpu_hour = {}\n",
                           *spec.cluster.price_per_gpu_hour);
    }
    if (in.engine != engine) {
        out += fmt::format("# tally: inference.engine = {}\n", to_string(in.engine));
    }
    // Weights the command takes from their checkpoint's config (no flag says them).
    if (quantized_checkpoint) {
        out += fmt::format("# tally: inference.weight_dtype = {}\n", to_string(in.weight_dtype));
    }
    out += fmt::format(
        "# tally: inference.prompt_tokens = {}\n# tally: inference.output_tokens = {}\n",
        in.prompt_tokens, in.output_tokens);
    out += in.concurrency > 0
               ? fmt::format("# tally: inference.concurrency = {}\n", in.concurrency)
               : fmt::format("# tally: inference.batch = {}\n# tally: inference.concurrency = 0\n",
                             in.batch);
    return out + options_file + command_text(program, flags);
}

}  // namespace tally
