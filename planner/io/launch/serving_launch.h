#pragma once

// A serving plan (the spec's inference block) as the command that starts the engine it is
// planned for: `vllm serve`, SGLang's launch_server or `trtllm-serve`, with the flags that set what
// the plan counts (tensor and pipeline parallelism, expert parallelism, the context, the sequences
// a step runs, the tokens a step, chunked prefill, the KV cache's dtype, the memory share the
// engine keeps, the weights' quantization), and such a command read back as a serving plan
// (serving_import.cpp).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/spec.h"
#include "planner/core/text.h"
#include "planner/io/launch/launch_config.h"

namespace tally {

enum class ServingTarget { vllm, sglang, tensorrt_llm };

const std::vector<ServingTarget>& serving_targets();
std::string_view to_string(ServingTarget target);  // "vllm", "sglang", "tensorrt_llm"
std::optional<ServingTarget> serving_target_from_string(std::string_view name);
// "vLLM serve command", in English: a literal, translatable under "tally::launch".
std::string_view serving_target_title(ServingTarget target);

// The checkpoint of the spec's model where it is a shipped preset's: the Hugging Face repository
// whose config.json the preset was read from (resources/models/, "checkpoint"); nullopt for any
// other model.
std::optional<std::string> preset_checkpoint(const ModelSpec& model);

// The command, with a comment header that names the plan and says where the run will differ
// from what it counts (another engine timed, replicas to start, a quantized checkpoint to give).
// `checkpoint`: the model's weights (a Hugging Face id or a local path); empty: the plan's
// inference.checkpoint, else the preset's.
// Throws SpecError naming the field for a setting the engine has no flag for (vLLM's expert
// parallelism spans the tensor-parallel group; an fp32 KV cache) or refuses at start-up (vLLM's
// token budget below max_model_len or max_num_seqs; TensorRT-LLM on a pre-Ampere part), and
// "--model" when the model is no preset's, or its preset's checkpoint is not in the plan's weight
// dtype, and no checkpoint is given. The spec must pass check_inference().
std::string export_serving_command(const PlanSpec& spec, ServingTarget target,
                                   const std::string& checkpoint = {});

struct ServingImportOptions {
    std::optional<ServingTarget> from;  // nullopt: the program the text runs
    // The model where the command's checkpoint is no shipped preset's: its config.json. Given,
    // it wins over the checkpoint, and the import says so.
    std::optional<ModelSpec> model;
    std::optional<PlanSpec> base;  // the spec the command is laid over; nullopt: the defaults
    bool allow_unknown = false;    // list flags Tally does not know instead of refusing them
};

struct ServingImport {
    ServingTarget target = ServingTarget::vllm;
    PlanSpec spec;
    std::vector<LaunchSetting> read;     // flags (and "# tally:" lines) that set a spec field
    std::vector<LaunchSetting> ignored;  // the engine's flags without bearing on the plan
    std::vector<LaunchSetting> unknown;  // flags Tally does not know (allow_unknown only)
    std::vector<Text> guesses;           // "field = value: why", for what the command leaves out
};

// The engine a text starts: `vllm serve` (or vLLM's api_server module), sglang.launch_server,
// trtllm-serve; nullopt for none.
std::optional<ServingTarget> detect_serving_target(std::string_view text);

// A serving engine's launch command (what export_serving_command() writes, or one written by
// hand) as a serving plan: the engine and its flags that a plan counts, the model from the
// checkpoint it serves (a shipped preset's) or from options.model, trtllm-serve's options file
// where the text writes it (a here-document), and Tally's own "# tally:" lines. An unknown flag
// (unless allow_unknown), a value out of range, a checkpoint of no preset without a config.json,
// or a layout Tally cannot express throw SpecError naming the flag.
ServingImport import_serving_command(const std::string& text, const std::string& file_name,
                                     const ServingImportOptions& options);

}  // namespace tally
