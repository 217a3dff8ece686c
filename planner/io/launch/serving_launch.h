#pragma once

// A serving plan (the spec's inference block) as the command that starts the engine it is
// planned for: `vllm serve`, SGLang's launch_server or `trtllm-serve`, with the flags that set what
// the plan counts (tensor and pipeline parallelism, expert parallelism, the context, the sequences
// a step runs, the tokens a step, chunked prefill, the KV cache's dtype, the memory share the
// engine keeps, the weights' quantization). Export only: a serving command is not read back.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/spec.h"
#include "planner/core/text.h"

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
// `checkpoint`: the model's weights (a Hugging Face id or a local path); empty: the preset's.
// Throws SpecError naming the field for a setting the engine has no flag for (vLLM's expert
// parallelism spans the tensor-parallel group; an fp32 KV cache) or refuses at start-up (vLLM's
// token budget below max_model_len or max_num_seqs; TensorRT-LLM on a pre-Ampere part), and
// "--model" when the model is no preset's, or its preset's checkpoint is not in the plan's weight
// dtype, and no checkpoint is given. The spec must pass check_inference().
std::string export_serving_command(const PlanSpec& spec, ServingTarget target,
                                   const std::string& checkpoint = {});

}  // namespace tally
