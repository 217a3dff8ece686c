// A serving engine's launch command read back as a serving plan
// (planner/io/launch/serving_launch.h): `vllm serve`, SGLang's launch_server and `trtllm-serve`,
// the flags each engine's own argument parser takes (vllm/engine/arg_utils.py,
// EngineArgs.add_cli_args; python/sglang/srt/server_args.py, ServerArgs.add_cli_args;
// tensorrt_llm/commands/serve.py), the ones that set what a serving plan counts. The flag names are
// the ones export_serving_command() writes, with the engines' aliases.
#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include "planner/core/enum_names.h"
#include "planner/core/errors.h"
#include "planner/core/limits.h"
#include "planner/hardware/hardware.h"
#include "planner/hardware/user_profiles.h"
#include "planner/io/launch/launch_fields.h"
#include "planner/io/launch/serving_launch.h"
#include "planner/io/presets.h"
#include "planner/serving/inference.h"
#include "planner/serving/serving_engine.h"

namespace tally {

namespace {

// What a flag sets.
enum class Sets {
    tp,
    pp,
    ep,
    dp,               // data-parallel replicas (or, with SGLang's dp attention, the tp group)
    expert_parallel,  // vLLM's switch: the experts over the tensor-parallel group
    dp_attention,     // SGLang's switch
    context,          // the longest sequence: prompt + output
    sequences,        // the sequences a step runs: concurrency
    step_tokens,      // the tokens a step takes
    prefill_tokens,   // SGLang's tokens of a prefill batch
    chunk_size,       // SGLang's chunk size (-1: no chunking)
    chunked_on,       // switch
    chunked_off,      // switch
    memory_fraction,  // the engine's memory share
    kv_dtype,
    quantization,
    dtype,
    model,
    options_file,  // trtllm-serve's --extra_llm_api_options
    backend,       // trtllm-serve's --backend
    not_modelled,  // a setting of the run the plan does not count (said)
    prefix_cache,  // prefix caching, on or off: not modelled (said)
    nothing,       // read, and without bearing on the plan
};

struct Flag {
    std::vector<std::string_view> names;  // without leading dashes, '_' as '-'
    Sets sets;
    bool is_switch = false;
};

// vllm/engine/arg_utils.py (EngineArgs.add_cli_args) and vllm/entrypoints/openai/cli_args.py.
const std::vector<Flag>& vllm_flags() {
    static const std::vector<Flag> f = {
        {{"tensor-parallel-size", "tp"}, Sets::tp},
        {{"pipeline-parallel-size", "pp"}, Sets::pp},
        {{"data-parallel-size", "dp"}, Sets::dp},
        {{"enable-expert-parallel"}, Sets::expert_parallel, true},
        {{"max-model-len"}, Sets::context},
        {{"max-num-seqs"}, Sets::sequences},
        {{"max-num-batched-tokens"}, Sets::step_tokens},
        {{"enable-chunked-prefill"}, Sets::chunked_on, true},
        {{"no-enable-chunked-prefill"}, Sets::chunked_off, true},
        {{"gpu-memory-utilization"}, Sets::memory_fraction},
        {{"kv-cache-dtype"}, Sets::kv_dtype},
        {{"quantization", "q"}, Sets::quantization},
        {{"dtype"}, Sets::dtype},
        {{"model"}, Sets::model},
        {{"host",
          "port",
          "served-model-name",
          "api-key",
          "seed",
          "download-dir",
          "tokenizer",
          "revision",
          "tokenizer-revision",
          "uvicorn-log-level",
          "chat-template",
          "tool-call-parser",
          "reasoning-parser",
          "max-log-len",
          "distributed-executor-backend",
          "generation-config",
          "load-format",
          "hf-token",
          "root-path",
          "ssl-keyfile",
          "ssl-certfile",
          "allowed-origins",
          "response-role",
          "lora-modules"},
         Sets::nothing},
        // Settings of the run the plan does not model: read, and said among the assumptions.
        {{"enforce-eager"}, Sets::not_modelled, true},
        {{"cpu-offload-gb"}, Sets::not_modelled},
        {{"swap-space", "block-size", "max-seq-len-to-capture"}, Sets::nothing},
        {{"async-scheduling", "disable-custom-all-reduce", "enable-sleep-mode"},
         Sets::nothing,
         true},
        {{"enable-prefix-caching", "no-enable-prefix-caching"}, Sets::prefix_cache, true},
        {{"trust-remote-code", "disable-log-requests", "disable-log-stats", "enable-log-requests",
          "enable-auto-tool-choice", "disable-fastapi-docs", "enable-prompt-tokens-details"},
         Sets::nothing,
         true},
    };
    return f;
}

// python/sglang/srt/server_args.py (ServerArgs.add_cli_args).
const std::vector<Flag>& sglang_flags() {
    static const std::vector<Flag> f = {
        {{"model-path", "model"}, Sets::model},
        {{"tp-size", "tensor-parallel-size", "tp"}, Sets::tp},
        {{"pp-size", "pipeline-parallel-size"}, Sets::pp},
        {{"ep-size", "expert-parallel-size", "ep"}, Sets::ep},
        {{"dp-size", "data-parallel-size", "dp"}, Sets::dp},
        {{"enable-dp-attention"}, Sets::dp_attention, true},
        {{"context-length"}, Sets::context},
        {{"max-running-requests"}, Sets::sequences},
        {{"chunked-prefill-size"}, Sets::chunk_size},
        {{"max-prefill-tokens"}, Sets::prefill_tokens},
        {{"mem-fraction-static"}, Sets::memory_fraction},
        {{"kv-cache-dtype"}, Sets::kv_dtype},
        {{"quantization"}, Sets::quantization},
        {{"dtype"}, Sets::dtype},
        // One process a host; the replica's size is tp x pp.
        {{"nnodes", "node-rank", "dist-init-addr", "host", "port", "served-model-name",
          "tokenizer-path", "log-level", "random-seed", "api-key", "attention-backend",
          "cuda-graph-max-bs", "chat-template", "tool-call-parser", "reasoning-parser", "revision",
          "download-dir"},
         Sets::nothing},
        // SGLang's prefix cache is its radix cache (RadixAttention).
        {{"disable-radix-cache"}, Sets::prefix_cache, true},
        {{"trust-remote-code", "enable-metrics", "skip-tokenizer-init", "enable-cache-report",
          "log-requests"},
         Sets::nothing,
         true},
    };
    return f;
}

// tensorrt_llm/commands/serve.py (trtllm-serve's click options).
const std::vector<Flag>& trtllm_flags() {
    static const std::vector<Flag> f = {
        {{"backend"}, Sets::backend},
        // Each option's name and its alias (--tensor_parallel_size, --tp_size).
        {{"tensor-parallel-size", "tp-size"}, Sets::tp},
        {{"pipeline-parallel-size", "pp-size"}, Sets::pp},
        {{"moe-expert-parallel-size", "ep-size"}, Sets::ep},
        {{"max-batch-size"}, Sets::sequences},
        {{"max-num-tokens"}, Sets::step_tokens},
        {{"max-seq-len"}, Sets::context},
        {{"free-gpu-memory-fraction", "kv-cache-free-gpu-memory-fraction"}, Sets::memory_fraction},
        {{"enable-chunked-prefill"}, Sets::chunked_on, true},
        {{"extra-llm-api-options", "config"}, Sets::options_file},
        {{"host", "port", "log-level", "tokenizer", "num-postprocess-workers", "gpus-per-node",
          "cluster-size", "server-role", "metadata-server-config-file", "reasoning-parser",
          "tool-parser", "chat-template", "revision", "max-beam-width"},
         Sets::nothing},
        {{"trust-remote-code"}, Sets::nothing, true},
    };
    return f;
}

const std::vector<Flag>& flags_of(ServingTarget target) {
    switch (target) {
        case ServingTarget::vllm:
            return vllm_flags();
        case ServingTarget::sglang:
            return sglang_flags();
        case ServingTarget::tensorrt_llm:
            return trtllm_flags();
    }
    return vllm_flags();
}

ServingEngine engine_of(ServingTarget target) {
    switch (target) {
        case ServingTarget::vllm:
            return ServingEngine::vllm;
        case ServingTarget::sglang:
            return ServingEngine::sglang;
        case ServingTarget::tensorrt_llm:
            return ServingEngine::tensorrt_llm;
    }
    return ServingEngine::vllm;
}

std::string engine_name(ServingTarget target) {
    switch (target) {
        case ServingTarget::vllm:
            return "vLLM";
        case ServingTarget::sglang:
            return "SGLang";
        case ServingTarget::tensorrt_llm:
            return "TensorRT-LLM";
    }
    return "?";
}

std::string normalized(std::string name) {
    const std::size_t first = name.find_first_not_of('-');
    name.erase(0, first == std::string::npos ? name.size() : first);
    std::replace(name.begin(), name.end(), '_', '-');
    return name;
}

// A here-document the text writes to a file before the command (what the trtllm-serve export
// writes for its options file): `cat > FILE <<'EOF'` ... `EOF`.
struct Heredoc {
    std::string file;
    std::string body;
    int line = 0;  // of its first body line
};

// A relative path as a comparison takes it: without a leading "./" or quotes.
std::string same_path(std::string path) {
    path.erase(std::remove(path.begin(), path.end(), '\''), path.end());
    path.erase(std::remove(path.begin(), path.end(), '"'), path.end());
    while (path.rfind("./", 0) == 0) {
        path.erase(0, 2);
    }
    return path;
}

// The text with its here-documents' lines blanked (line numbers kept), and the documents.
std::string without_heredocs(const std::string& text, std::vector<Heredoc>& docs) {
    std::istringstream in(text);
    std::string out;
    std::string line;
    int number = 0;
    std::optional<std::string> delimiter;
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        if (delimiter) {
            std::string trimmed = line;
            trimmed.erase(0, trimmed.find_first_not_of(" \t"));
            if (trimmed == *delimiter) {
                delimiter.reset();
            } else {
                docs.back().body += line + "\n";
            }
            out += "\n";
            continue;
        }
        // A comment line (a plan's name may hold anything) opens no here-document.
        const std::size_t first_char = line.find_first_not_of(" \t");
        const bool comment = first_char != std::string::npos && line[first_char] == '#';
        const std::size_t here = comment ? std::string::npos : line.find("<<");
        if (here == std::string::npos) {
            out += line + "\n";
            continue;
        }
        std::string word = line.substr(here + 2);
        word.erase(0, word.find_first_not_of("- \t"));
        word = word.substr(0, word.find_first_of(" \t;"));
        word.erase(std::remove(word.begin(), word.end(), '\''), word.end());
        word.erase(std::remove(word.begin(), word.end(), '"'), word.end());
        // The file it goes to: the word after a '>' that is not the '<<' itself, before it
        // (cat > FILE <<EOF) or after its delimiter (cat <<EOF > FILE).
        std::string file;
        for (std::size_t gt = line.find('>'); gt != std::string::npos;
             gt = line.find('>', gt + 1)) {
            if (gt > 0 && line[gt - 1] == '<') {
                continue;
            }
            std::string rest = line.substr(gt + 1);
            rest.erase(0, rest.find_first_not_of(" \t"));
            file = same_path(rest.substr(0, rest.find_first_of(" \t;<")));
            break;
        }
        docs.push_back(Heredoc{file, {}, number + 1});
        delimiter = word;
        out += "\n";
    }
    if (delimiter) {
        throw SpecError(
            fmt::format("line {}", docs.back().line - 1), "<<" + *delimiter,
            TALLY_TEXT("tally::launch", "a here-document closed by a line %1").arg(*delimiter));
    }
    return out;
}

bool is_option(const std::string& token) {
    return token.size() > 1 && token[0] == '-' &&
           !(std::isdigit(static_cast<unsigned char>(token[1])) != 0);
}

struct Arg {
    std::string written;  // as written, without "=value"
    std::string value;
    bool has_value = false;
    int line = 0;
};

std::int64_t whole(const Arg& a, std::int64_t least) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(a.value.data(), a.value.data() + a.value.size(), v);
    if (ec != std::errc() || end != a.value.data() + a.value.size() || v < least ||
        v > kMaxJsonInteger) {
        throw SpecError(a.written, "\"" + a.value + "\"",
                        TALLY_TEXT("tally::launch", "a whole number of at least %1").arg(least));
    }
    return v;
}

// The longest sequence as vLLM's --max-model-len takes it (vllm/config/model.py, ModelConfig
// max_model_len: "k/m/g/K/M/G in human-readable format", lower case decimal (1k = 1000), upper
// case binary (1K = 1024); -1 or "auto": the model's own context); other engines take whole
// numbers, which this reads too.
std::int64_t context_tokens(const Arg& a, const ModelSpec& model) {
    if (a.value == "-1" || a.value == "auto") {
        if (model.context_length > 0) {
            return model.context_length;
        }
        throw SpecError(a.written, "\"" + a.value + "\"",
                        TALLY_TEXT("tally::launch",
                                   "a number of tokens: the model's own context is not known"));
    }
    static const std::string suffixes = "kmgKMG";
    const char last = a.value.empty() ? '\0' : a.value.back();
    if (suffixes.find(last) == std::string::npos || a.value.size() < 2) {
        return whole(a, 2);
    }
    char* end = nullptr;
    const std::string number = a.value.substr(0, a.value.size() - 1);
    const double v = std::strtod(number.c_str(), &end);
    const int power = static_cast<int>(suffixes.find(std::tolower(last)) + 1);
    const double scale =
        std::pow(std::isupper(static_cast<unsigned char>(last)) ? 1024.0 : 1000.0, power);
    const double tokens = v * scale;
    if (end != number.c_str() + number.size() || !(tokens >= 2.0) || tokens > 1e12 ||
        tokens != std::floor(tokens)) {
        throw SpecError(a.written, "\"" + a.value + "\"",
                        TALLY_TEXT("tally::launch",
                                   "a whole number of tokens, at least 2 (1k = 1000, 1K = 1024)"));
    }
    return static_cast<std::int64_t>(tokens);
}

// A switch, bare (on) or with a value as argparse's BooleanOptionalAction and click's flags
// take one (--enable-chunked-prefill=False).
bool switched_on(const Arg& a) {
    if (!a.has_value || a.value == "true" || a.value == "True" || a.value == "1") {
        return true;
    }
    if (a.value == "false" || a.value == "False" || a.value == "0") {
        return false;
    }
    throw SpecError(a.written, "\"" + a.value + "\"",
                    TALLY_TEXT("tally::launch", "true or false, or the flag alone (true)"));
}

double share(const Arg& a) {
    char* end = nullptr;
    const double v = a.value.empty() ? 0.0 : std::strtod(a.value.c_str(), &end);
    if (a.value.empty() || end != a.value.c_str() + a.value.size() || !(v > 0.0 && v <= 1.0)) {
        throw SpecError(a.written, "\"" + a.value + "\"",
                        TALLY_TEXT("tally::launch", "a share of the GPU's memory in (0, 1]"));
    }
    return v;
}

DType kv_dtype_from(const Arg& a, bool* automatic) {
    *automatic = false;
    if (a.value == "auto") {
        *automatic = true;
        return DType::bf16;
    }
    if (a.value == "fp8" || a.value == "fp8_e4m3") {
        return DType::fp8_e4m3;
    }
    if (a.value == "fp8_e5m2") {
        return DType::fp8_e5m2;
    }
    throw SpecError(a.written, "\"" + a.value + "\"",
                    TALLY_TEXT("tally::launch", "auto, fp8, fp8_e4m3 or fp8_e5m2"));
}

DType dtype_from(const Arg& a, bool* automatic) {
    *automatic = false;
    if (a.value == "auto") {
        *automatic = true;
        return DType::bf16;
    }
    if (a.value == "bfloat16" || a.value == "bf16") {
        return DType::bf16;
    }
    if (a.value == "float16" || a.value == "half" || a.value == "fp16") {
        return DType::fp16;
    }
    throw SpecError(a.written, "\"" + a.value + "\"",
                    TALLY_TEXT("tally::launch",
                               "auto, bfloat16 or float16: Tally serves 16-bit or quantized "
                               "weights"));
}

// A checkpoint's name reduced to its architecture: lower case, without the tuning and format
// words a fine-tune or a re-packing adds to the base model's repository name ("-Instruct",
// "-chat", "-hf", "-FP8"): "meta-llama/Meta-Llama-3-70B-Instruct" and the preset's
// "meta-llama/Meta-Llama-3-70B" both become "meta-llama/meta-llama-3-70b".
std::string architecture_key(std::string id) {
    std::transform(id.begin(), id.end(), id.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    // Meta renamed its Llama 3.1 repositories from meta-llama/Meta-Llama-3.1-* to
    // meta-llama/Llama-3.1-* (the hub redirects the old names, which scripts still use): both
    // spellings are one checkpoint.
    constexpr std::string_view kOldPrefix = "meta-llama/meta-llama-";
    if (id.starts_with(kOldPrefix)) {
        id = "meta-llama/llama-" + id.substr(kOldPrefix.size());
    }
    for (const std::string_view word : {"-instruct", "-chat", "-hf", "-fp8"}) {
        for (std::size_t at = id.find(word); at != std::string::npos; at = id.find(word)) {
            const std::size_t end = at + word.size();
            if (end != id.size() && id[end] != '-') {
                break;  // a longer word ("-chatml"): not this one
            }
            id.erase(at, word.size());
        }
    }
    return id;
}

bool names_fp8(std::string id) {
    std::transform(id.begin(), id.end(), id.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::size_t at = id.find("-fp8");
    return at != std::string::npos && (at + 4 == id.size() || id[at + 4] == '-');
}

// The engine whose program starts at word i (vllm serve, vLLM's api_server module or its
// vllm/vllm-openai container image, sglang.launch_server, trtllm-serve), and the word after it.
std::optional<ServingTarget> program_at(const std::vector<launch::Token>& tokens, std::size_t i,
                                        std::size_t* next = nullptr) {
    const std::string& t = tokens[i].text;
    std::optional<ServingTarget> target;
    std::size_t after = i + 1;
    if (t == "vllm" && i + 1 < tokens.size() && tokens[i + 1].text == "serve") {
        target = ServingTarget::vllm;
        after = i + 2;
    } else if (t == "vllm.entrypoints.openai.api_server" || t.rfind("vllm/vllm-openai", 0) == 0) {
        // The image's entrypoint is the api_server module; its arguments follow the image.
        target = ServingTarget::vllm;
    } else if (t == "sglang.launch_server") {
        target = ServingTarget::sglang;
    } else if (t == "trtllm-serve") {
        target = ServingTarget::tensorrt_llm;
        if (after < tokens.size() && tokens[after].text == "serve") {
            ++after;  // trtllm-serve serve MODEL, the group's command spelled out
        }
    }
    if (next != nullptr) {
        *next = after;
    }
    return target;
}

}  // namespace

std::optional<ServingTarget> detect_serving_target(std::string_view text) {
    // The program the command runs, among its words: a comment or a here-document that mentions
    // another engine does not count.
    std::vector<launch::Token> tokens;
    try {
        std::vector<Heredoc> docs;
        tokens = launch::shell_tokens(without_heredocs(std::string(text), docs));
    } catch (const SpecError&) {
        // Text the shell would not read (an unclosed quote or here-document): the engine its
        // words name, so that the import says what is wrong with it.
        for (const auto& [word, target] : {std::pair{"trtllm-serve", ServingTarget::tensorrt_llm},
                                           std::pair{"sglang.launch_server", ServingTarget::sglang},
                                           std::pair{"vllm serve", ServingTarget::vllm}}) {
            if (text.find(word) != std::string_view::npos) {
                return target;
            }
        }
        return std::nullopt;
    }
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (const std::optional<ServingTarget> t = program_at(tokens, i)) {
            return t;
        }
    }
    return std::nullopt;
}

ServingImport import_serving_command(const std::string& text, const std::string& file_name,
                                     const ServingImportOptions& options) {
    launch::require_utf8(text);
    ServingImport out;
    const std::optional<ServingTarget> target =
        options.from ? options.from : detect_serving_target(text);
    if (!target) {
        throw SpecError("--from", "nothing given and no serving command in " + file_name,
                        TALLY_TEXT("tally::launch",
                                   "vllm (vllm serve MODEL ...), sglang (python -m "
                                   "sglang.launch_server ...) or tensorrt_llm (trtllm-serve "
                                   "MODEL ...)"));
    }
    out.target = *target;
    const ServingEngine engine = engine_of(*target);

    std::vector<Heredoc> docs;
    const std::vector<launch::Token> tokens = launch::shell_tokens(without_heredocs(text, docs));

    // The program, then its model (a positional argument of vllm serve and trtllm-serve) and its
    // options; words before the program (environment assignments, mpirun, python -m) are the
    // launcher's.
    std::size_t first = tokens.size();
    bool found = false;
    for (std::size_t i = 0; i < tokens.size() && !found; ++i) {
        std::size_t next = 0;
        if (program_at(tokens, i, &next) == *target) {
            first = next;
            found = true;
        }
    }
    if (!found) {
        throw SpecError("--from", std::string(to_string(*target)),
                        TALLY_TEXT("tally::launch", "a file that runs %1")
                            .arg_translated("tally::launch", serving_target_title(*target).data()));
    }

    std::string model_id;
    int model_line = 0;
    std::vector<Arg> args;
    for (std::size_t i = first; i < tokens.size(); ++i) {
        const launch::Token& t = tokens[i];
        if (!is_option(t.text)) {
            if (model_id.empty() && args.empty() && *target != ServingTarget::sglang) {
                model_id = t.text;
                model_line = t.line;
                continue;
            }
            throw SpecError(fmt::format("line {}", t.line), "\"" + t.text + "\"",
                            TALLY_TEXT("tally::launch",
                                       "an option --name [value]; a value belongs to the option "
                                       "before it"));
        }
        Arg a;
        a.line = t.line;
        a.written = t.text;
        if (const std::size_t eq = t.text.find('='); eq != std::string::npos) {
            a.written = t.text.substr(0, eq);
            a.value = t.text.substr(eq + 1);
            a.has_value = true;
        }
        args.push_back(std::move(a));
        // Its value: the next word, unless that is an option or the flag is a switch.
        const std::string name = normalized(args.back().written);
        const auto& table = flags_of(*target);
        const auto flag = std::find_if(table.begin(), table.end(), [&](const Flag& f) {
            return std::find(f.names.begin(), f.names.end(), name) != f.names.end();
        });
        const bool is_switch = flag != table.end() && flag->is_switch;
        if (!args.back().has_value && !is_switch && i + 1 < tokens.size() &&
            !is_option(tokens[i + 1].text)) {
            args.back().value = tokens[++i].text;
            args.back().has_value = true;
        }
    }

    PlanSpec spec = options.base.value_or(PlanSpec{});
    InferenceSpec& in = spec.inference;
    in.engine = engine;
    // What the command alone says, not the base plan's: the weights and cache as the command
    // serves them, the engine's own memory share and parallelism.
    in.weight_dtype = DType::bf16;
    in.memory_fraction.reset();
    in.dp_attention = false;
    // An engine's defaults where the command leaves a setting out (vllm/config/scheduler.py;
    // server_args.py; serve.py), as far as a plan counts them.
    std::optional<std::int64_t> tp, pp, ep, dp, context, sequences, step_tokens, prefill_tokens,
        chunk;
    std::optional<double> memory;
    std::optional<Arg> kv_arg, quant_arg, dtype_arg, options_arg, tp_arg, dp_arg, context_arg;
    bool expert_parallel = false, dp_attention = false;
    std::optional<bool> chunked;
    for (const Arg& a : args) {
        const std::string name = normalized(a.written);
        const auto& table = flags_of(*target);
        const auto flag = std::find_if(table.begin(), table.end(), [&](const Flag& f) {
            return std::find(f.names.begin(), f.names.end(), name) != f.names.end();
        });
        if (flag == table.end()) {
            if (options.allow_unknown) {
                out.unknown.push_back(LaunchSetting{a.written, a.value, a.line, {}});
                continue;
            }
            throw SpecError(
                a.written, a.has_value ? "\"" + a.value + "\"" : std::string("(a switch)"),
                TALLY_TEXT("tally::launch",
                           "not a flag of %1 that Tally knows: --allow-unknown lists "
                           "it instead of refusing it")
                    .arg_translated("tally::launch", serving_target_title(*target).data()));
        }
        if (!flag->is_switch && !a.has_value) {
            throw SpecError(a.written, "", TALLY_TEXT("tally::launch", "a value after the flag"));
        }
        std::string field;
        switch (flag->sets) {
            case Sets::tp:
                tp = whole(a, 1);
                tp_arg = a;
                field = "inference.tp";
                break;
            case Sets::pp:
                pp = whole(a, 1);
                field = "inference.pp";
                break;
            case Sets::ep:
                ep = whole(a, 1);
                field = "inference.ep";
                break;
            case Sets::dp:
                dp = whole(a, 1);
                dp_arg = a;
                field = "cluster.gpus";
                break;
            case Sets::expert_parallel:
                expert_parallel = switched_on(a);
                field = "inference.ep";
                break;
            case Sets::dp_attention:
                dp_attention = switched_on(a);
                field = "inference.dp_attention";
                break;
            case Sets::context:
                context_arg = a;  // read once the model is known (-1: its own context)
                field = "inference.prompt_tokens";
                break;
            case Sets::sequences:
                sequences = whole(a, 1);
                field = "inference.concurrency";
                break;
            case Sets::step_tokens:
                step_tokens = whole(a, 1);
                field = "inference.max_batched_tokens";
                break;
            case Sets::prefill_tokens:
                prefill_tokens = whole(a, 1);
                field = "inference.max_batched_tokens";
                break;
            case Sets::chunk_size:
                if (a.value == "-1") {
                    chunk = -1;
                } else {
                    chunk = whole(a, 1);
                }
                field = "inference.chunked_prefill";
                break;
            case Sets::chunked_on:
                chunked = switched_on(a);
                field = "inference.chunked_prefill";
                break;
            case Sets::chunked_off:
                chunked = !switched_on(a);
                field = "inference.chunked_prefill";
                break;
            case Sets::memory_fraction:
                memory = share(a);
                field = "inference.memory_fraction";
                break;
            case Sets::kv_dtype:
                kv_arg = a;
                field = "inference.kv_dtype";
                break;
            case Sets::quantization:
                quant_arg = a;
                field = "inference.weight_dtype";
                break;
            case Sets::dtype:
                dtype_arg = a;
                field = "inference.weight_dtype";
                break;
            case Sets::model:
                model_id = a.value;
                model_line = a.line;
                field = "model";
                break;
            case Sets::options_file:
                options_arg = a;
                break;
            case Sets::backend:
                if (a.value != "pytorch" && a.value != "trt" && a.value != "tensorrt" &&
                    a.value != "_autodeploy") {
                    throw SpecError(a.written, "\"" + a.value + "\"",
                                    TALLY_TEXT("tally::launch", "pytorch, trt or _autodeploy"));
                }
                if (a.value != "pytorch") {
                    out.guesses.push_back(
                        TALLY_TEXT("tally::launch",
                                   "%1 %2 is not modelled: the plan times TensorRT-LLM's preset, "
                                   "which its PyTorch and engine runtimes share")
                            .arg(a.written)
                            .arg(a.value));
                }
                break;
            case Sets::not_modelled:
                out.guesses.push_back(TALLY_TEXT("tally::launch",
                                                 "%1 is not modelled: the plan times %2 as it "
                                                 "runs by default (CUDA graphs, the weights on "
                                                 "the GPU)")
                                          .arg(a.written)
                                          .arg(engine_name(*target)));
                break;
            case Sets::prefix_cache:
                // A request whose prompt begins as an earlier one's skips the cached tokens'
                // prefill; how many do is the requests', which a plan does not know.
                out.guesses.push_back(TALLY_TEXT("tally::launch",
                                                 "%1 is not modelled: the plan prefills every "
                                                 "prompt whole, as if no request shared a prefix "
                                                 "with an earlier one")
                                          .arg(a.written));
                break;
            case Sets::nothing:
                break;
        }
        if (flag->sets == Sets::options_file) {
            continue;  // read, or listed as not read, with the options file below
        }
        if (flag->sets == Sets::not_modelled || flag->sets == Sets::prefix_cache) {
            continue;  // said among the assumptions: it bears on the run, the plan leaves it out
        }
        if (field.empty()) {
            out.ignored.push_back(LaunchSetting{a.written, a.value, a.line, {}});
        } else {
            out.read.push_back(LaunchSetting{a.written, a.value, a.line, field});
        }
    }

    // trtllm-serve's options file, where the text writes it (the export's here-document): the
    // LLM API's settings laid over the flags.
    std::optional<std::string> yaml_dtype, yaml_kv;
    if (options_arg) {
        const auto doc = std::find_if(docs.begin(), docs.end(), [&](const Heredoc& d) {
            return d.file == same_path(options_arg->value);
        });
        if (doc == docs.end()) {
            out.guesses.push_back(
                TALLY_TEXT("tally::launch",
                           "%1 %2 is not read (only a file the text writes, cat > FILE <<'EOF' "
                           "... EOF, is): its settings are taken as the engine's defaults")
                    .arg(options_arg->written)
                    .arg(options_arg->value));
            out.ignored.push_back(
                LaunchSetting{options_arg->written, options_arg->value, options_arg->line, {}});
        } else {
            const launch::Parsed parsed = launch::parse_form(launch::Form::yaml, doc->body);
            for (const launch::Setting& s : parsed.settings) {
                const int line = doc->line + s.line - 1;
                const std::string key = options_arg->value + ": " + s.key;
                if (s.key == "dtype") {
                    yaml_dtype = s.raw;
                    out.read.push_back(LaunchSetting{key, s.raw, line, "inference.weight_dtype"});
                } else if (s.key == "kv_cache_config.dtype") {
                    yaml_kv = s.raw;
                    out.read.push_back(LaunchSetting{key, s.raw, line, "inference.kv_dtype"});
                } else if (s.key == "enable_attention_dp") {
                    dp_attention = s.raw == "true" || s.raw == "True";
                    out.read.push_back(LaunchSetting{key, s.raw, line, "inference.dp_attention"});
                } else if (s.key == "kv_cache_config.free_gpu_memory_fraction") {
                    memory = share(Arg{key, s.raw, true, line});
                    out.read.push_back(
                        LaunchSetting{key, s.raw, line, "inference.memory_fraction"});
                } else if (s.key.rfind("cuda_graph_config", 0) == 0) {
                    // CUDA graphs on the PyTorch backend: the plan times the preset's launches.
                    out.ignored.push_back(LaunchSetting{key, s.raw, line, {}});
                    out.guesses.push_back(
                        TALLY_TEXT("tally::launch",
                                   "%1 is not modelled: the plan times TensorRT-LLM's preset "
                                   "(its C++ runtime's kernel launches)")
                            .arg(key));
                } else if (s.key == "print_iter_log" || s.key == "enable_iter_perf_stats" ||
                           s.key == "kv_cache_config.enable_block_reuse") {
                    out.ignored.push_back(LaunchSetting{key, s.raw, line, {}});
                } else if (options.allow_unknown) {
                    out.unknown.push_back(LaunchSetting{key, s.raw, line, {}});
                } else {
                    throw SpecError(key, "\"" + s.raw + "\"",
                                    TALLY_TEXT("tally::launch",
                                               "dtype, kv_cache_config.dtype, "
                                               "kv_cache_config.free_gpu_memory_fraction or "
                                               "enable_attention_dp: the options Tally reads; "
                                               "--allow-unknown lists the others"));
                }
            }
        }
    }

    // Tally's own lines ("# tally: FIELD = VALUE"), which the export writes for what the command
    // cannot say: the GPU, the prompt and output lengths, the requests in flight.
    std::map<std::string, std::string> carried;
    {
        std::istringstream lines(text);
        std::string line;
        int number = 0;
        while (std::getline(lines, line)) {
            ++number;
            const std::size_t mark = line.find("# tally:");
            if (mark == std::string::npos || line.find_first_not_of(" \t") != mark) {
                continue;
            }
            const std::string body = line.substr(mark + 8);
            const std::size_t eq = body.find('=');
            if (eq == std::string::npos) {
                continue;
            }
            auto trim = [](std::string s) {
                s.erase(0, s.find_first_not_of(" \t\r"));
                s.erase(s.find_last_not_of(" \t\r") + 1);
                return s;
            };
            const std::string key = trim(body.substr(0, eq));
            const std::string value = trim(body.substr(eq + 1));
            static const std::vector<std::string_view> known = {"name",
                                                                "model.preset",
                                                                "cluster.gpu",
                                                                "cluster.gpus",
                                                                "cluster.price_per_gpu_hour",
                                                                "inference.engine",
                                                                "inference.weight_dtype",
                                                                "inference.prompt_tokens",
                                                                "inference.output_tokens",
                                                                "inference.batch",
                                                                "inference.concurrency"};
            if (std::find(known.begin(), known.end(), key) == known.end()) {
                if (options.allow_unknown) {
                    out.unknown.push_back(LaunchSetting{"tally: " + key, value, number, {}});
                    continue;
                }
                FieldError error = FieldError::of(
                    fmt::format("tally: {} (line {})", key, number), "\"" + key + "\"",
                    TALLY_TEXT("tally::launch",
                               "one of Tally's own settings of a serving command: "
                               "name, model.preset, cluster.gpu, cluster.gpus, "
                               "cluster.price_per_gpu_hour, inference.engine, "
                               "inference.weight_dtype, "
                               "inference.prompt_tokens, inference.output_tokens, "
                               "inference.batch, inference.concurrency"));
                error.field_text =
                    TALLY_TEXT("tally::launch", "%1 (line %2)").arg("tally: " + key).arg(number);
                throw SpecError(std::move(error));
            }
            carried[key] = value;
            out.read.push_back(LaunchSetting{"tally: " + key, value, number, key});
        }
    }
    auto carried_int = [&](const std::string& key) -> std::optional<std::int64_t> {
        const auto it = carried.find(key);
        if (it == carried.end()) {
            return std::nullopt;
        }
        return whole(Arg{"tally: " + key, it->second, true, 0}, 0);
    };
    if (const auto it = carried.find("name"); it != carried.end()) {
        spec.name = it->second;
    } else {
        // The file's name, not its path: a plan imported in the window is named after it.
        spec.name = fmt::format("{} ({})", std::filesystem::path(file_name).filename().string(),
                                serving_target_title(*target));
    }
    if (const auto it = carried.find("cluster.gpu"); it != carried.end()) {
        validate_profile_id(it->second, "tally: cluster.gpu");
        spec.cluster.gpu = it->second;
    } else {
        out.guesses.push_back(
            TALLY_TEXT("tally::launch", "cluster.gpu = %1: the command does not name the GPU")
                .arg(spec.cluster.gpu));
    }

    // The model: the preset whose checkpoint the command serves, or the config.json given.
    if (options.model) {
        spec.model = *options.model;
        if (!model_id.empty()) {
            out.guesses.push_back(
                TALLY_TEXT("tally::launch", "model: from the config.json given, not %1")
                    .arg(model_id));
        }
    } else {
        const ModelPreset* preset = nullptr;
        for (const ModelPreset& p : model_presets()) {
            if (!p.checkpoint.empty() && p.checkpoint == model_id) {
                preset = &p;
            }
        }
        // A fine-tune or re-packing of a preset's base checkpoint has its dimensions.
        bool variant = false;
        if (preset == nullptr && !model_id.empty()) {
            for (const ModelPreset& p : model_presets()) {
                if (!p.checkpoint.empty() &&
                    architecture_key(p.checkpoint) == architecture_key(model_id)) {
                    preset = &p;
                    variant = true;
                }
            }
        }
        if (variant) {
            out.guesses.push_back(TALLY_TEXT("tally::launch",
                                             "model = the preset %1 (%2): %3 is named as a "
                                             "tuned or re-packed copy of it, with its dimensions")
                                      .arg(preset->id)
                                      .arg(preset->checkpoint)
                                      .arg(model_id));
            if (names_fp8(model_id) && !quant_arg) {
                in.weight_dtype = DType::fp8_e4m3;
                out.guesses.push_back(
                    TALLY_TEXT("tally::launch",
                               "inference.weight_dtype = fp8_e4m3: %1 is named as an fp8 "
                               "checkpoint, whose config the engine reads its quantization from")
                        .arg(model_id));
            }
        }
        // Tally's line names the preset of a checkpoint that is no preset's own (a quantized
        // one of the same model).
        if (const auto it = carried.find("model.preset");
            preset == nullptr && it != carried.end()) {
            for (const ModelPreset& p : model_presets()) {
                if (p.id == it->second) {
                    preset = &p;
                }
            }
            if (preset == nullptr) {
                throw SpecError("tally: model.preset", "\"" + it->second + "\"",
                                TALLY_TEXT("tally::launch", "a preset's id (tally presets)"));
            }
        } else if (preset != nullptr && preset->checkpoint_dtype) {
            in.weight_dtype = *preset->checkpoint_dtype;
            if (!quant_arg) {
                out.guesses.push_back(TALLY_TEXT("tally::launch",
                                                 "inference.weight_dtype = %1: the weights as "
                                                 "the checkpoint %2 holds them")
                                          .arg(std::string(to_string(in.weight_dtype)))
                                          .arg(preset->checkpoint));
            }
        }
        if (preset == nullptr) {
            FieldError error = FieldError::of(
                model_line > 0 ? fmt::format("model (line {})", model_line) : std::string("model"),
                model_id.empty() ? std::string("none given") : "\"" + model_id + "\"",
                TALLY_TEXT("tally::launch",
                           "the Hugging Face checkpoint of a shipped preset (tally "
                           "presets), or the model's config.json given with "
                           "--hf-config"));
            if (model_line > 0) {
                error.field_text =
                    TALLY_TEXT("tally::launch", "%1 (line %2)").arg("model").arg(model_line);
            }
            throw SpecError(std::move(error));
        }
        spec.model = preset->model;
    }
    // The checkpoint served, where it is not the preset's own: kept, so that the plan's command
    // serves it again.
    in.checkpoint.clear();
    if (!model_id.empty()) {
        const bool presets_own =
            std::any_of(model_presets().begin(), model_presets().end(), [&](const ModelPreset& p) {
                return p.checkpoint == model_id && p.model == spec.model;
            });
        if (!presets_own) {
            in.checkpoint = model_id;
        }
    }
    if (const auto it = carried.find("cluster.price_per_gpu_hour"); it != carried.end()) {
        char* end = nullptr;
        const double price = std::strtod(it->second.c_str(), &end);
        if (it->second.empty() || end != it->second.c_str() + it->second.size() ||
            !(price >= 0.0 && price < 1e9)) {
            throw SpecError("tally: cluster.price_per_gpu_hour", "\"" + it->second + "\"",
                            TALLY_TEXT("tally::launch", "a price in dollars, >= 0"));
        }
        if (price > 0.0) {  // 0: the profile's, as a spec reads it
            spec.cluster.price_per_gpu_hour = price;
        }
    }
    // The weights a checkpoint holds quantized, which the command takes from its config.
    if (const auto it = carried.find("inference.weight_dtype"); it != carried.end()) {
        const std::optional<DType> d = parse_dtype(it->second);
        if (!d) {
            throw SpecError("tally: inference.weight_dtype", "\"" + it->second + "\"",
                            TALLY_TEXT("tally::launch", "one of %1").arg(dtype_names()));
        }
        in.weight_dtype = *d;
    }
    if (const auto it = carried.find("inference.engine"); it != carried.end()) {
        const std::optional<ServingEngine> timed = enum_from_json_name<ServingEngine>(it->second);
        if (!timed) {
            throw SpecError(
                "tally: inference.engine", "\"" + it->second + "\"",
                TALLY_TEXT("tally::launch", "one of %1").arg(json_names<ServingEngine>()));
        }
        in.engine = *timed;
    }

    // Weights and KV cache.
    bool dtype_auto = true;
    DType sixteen = DType::bf16;
    if (dtype_arg) {
        sixteen = dtype_from(*dtype_arg, &dtype_auto);
    } else if (yaml_dtype) {
        sixteen = dtype_from(Arg{"dtype", *yaml_dtype, true, 0}, &dtype_auto);
    }
    if (quant_arg) {
        const std::string& q = quant_arg->value;
        if (q == "fp8" || q == "modelopt" || q == "modelopt_fp8") {
            in.weight_dtype = DType::fp8_e4m3;
        } else if (q == "mxfp4") {
            in.weight_dtype = DType::mxfp4;
        } else if (q == "modelopt_fp4" || q == "nvfp4") {
            in.weight_dtype = DType::nvfp4;
        } else if (q == "awq" || q == "awq_marlin" || q == "gptq" || q == "gptq_marlin" ||
                   q == "marlin") {
            in.weight_dtype = DType::int4;
            out.guesses.push_back(
                TALLY_TEXT("tally::launch",
                           "inference.weight_dtype = int4: %1 %2 reads the bits from the "
                           "checkpoint's config (4 for AWQ and most GPTQ checkpoints; set int8 "
                           "for an 8-bit one)")
                    .arg(quant_arg->written)
                    .arg(q));
        } else {
            throw SpecError(quant_arg->written, "\"" + q + "\"",
                            TALLY_TEXT("tally::launch",
                                       "fp8, mxfp4, modelopt_fp4, awq, awq_marlin, gptq or "
                                       "gptq_marlin: the weight formats Tally plans"));
        }
    } else if (!options.model || in.weight_dtype == DType::bf16 || in.weight_dtype == DType::fp16) {
        if (in.weight_dtype == DType::bf16 || in.weight_dtype == DType::fp16) {
            in.weight_dtype = sixteen;
        }
    }
    if (dtype_auto && carried.count("inference.weight_dtype") == 0 &&
        (in.weight_dtype == DType::bf16 || in.weight_dtype == DType::fp16)) {
        out.guesses.push_back(
            *target == ServingTarget::tensorrt_llm
                ? TALLY_TEXT("tally::launch",
                             "inference.weight_dtype = %1: the engine takes the checkpoint's "
                             "dtype (the options file's dtype: auto), which Tally does not read")
                      .arg(std::string(to_string(in.weight_dtype)))
                : TALLY_TEXT("tally::launch",
                             "inference.weight_dtype = %1: the engine takes the checkpoint's "
                             "dtype (--dtype auto), which Tally does not read")
                      .arg(std::string(to_string(in.weight_dtype))));
    }
    const DType model_dtype = in.weight_dtype == DType::bf16 || in.weight_dtype == DType::fp16
                                  ? in.weight_dtype
                                  : sixteen;
    in.kv_dtype = model_dtype;
    if (kv_arg) {
        bool automatic = false;
        const DType kv = kv_dtype_from(*kv_arg, &automatic);
        if (!automatic) {
            in.kv_dtype = kv;
        }
    } else if (yaml_kv && *yaml_kv != "auto") {
        in.kv_dtype = kv_dtype_from(Arg{"kv_cache_config.dtype", *yaml_kv, true, 0}, &dtype_auto);
    }

    // The layout.
    in.tp = tp.value_or(1);
    in.pp = pp.value_or(1);
    in.dp_attention = dp_attention;
    if (expert_parallel) {
        if (dp.value_or(1) > 1) {
            throw SpecError(dp_arg->written, dp_arg->value,
                            TALLY_TEXT("tally::launch",
                                       "1 beside --enable-expert-parallel: vLLM then runs "
                                       "data-parallel attention, each rank an engine with its own "
                                       "scheduler, and spreads the experts over tp x dp GPUs, "
                                       "which Tally does not import (SGLang's "
                                       "--enable-dp-attention it does)"));
        }
        in.ep = in.tp;
    } else {
        in.ep = ep.value_or(1);
    }
    std::int64_t replicas = dp.value_or(1);
    if (*target == ServingTarget::sglang && dp_attention) {
        // SGLang's --dp-size with dp attention splits the tensor-parallel group's attention; it
        // starts no further replicas (server_args.py: dp_size <= tp_size).
        if (dp && *dp != in.tp) {
            throw SpecError(dp_arg->written, dp_arg->value,
                            TALLY_TEXT("tally::launch",
                                       "the tensor-parallel size (%1) beside "
                                       "--enable-dp-attention: Tally's data-parallel attention "
                                       "gives each GPU of the group its own share")
                                .arg(in.tp));
        }
        replicas = 1;
    }
    if (const auto gpus = carried_int("cluster.gpus")) {
        spec.cluster.gpus = *gpus;
    } else {
        spec.cluster.gpus = in.tp * in.pp * replicas;
    }

    // The sequences and their length.
    if (context_arg) {
        context = context_tokens(*context_arg, spec.model);
    }
    const std::optional<std::int64_t> prompt = carried_int("inference.prompt_tokens");
    const std::optional<std::int64_t> output = carried_int("inference.output_tokens");
    if (context) {
        // Past the model's context the engines refuse to start unless told (vllm/envs.py
        // VLLM_ALLOW_LONG_MAX_MODEL_LEN; SGLang's SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN).
        if (spec.model.context_length > 0 && *context > spec.model.context_length) {
            out.guesses.push_back(
                TALLY_TEXT("tally::launch",
                           "the longest sequence, %1 tokens, is past the model's context of %2: "
                           "the engine starts only with the variable that allows it, and the "
                           "model was not trained on sequences this long")
                    .arg(*context)
                    .arg(spec.model.context_length));
        }
        if (prompt && output && *prompt + *output == *context) {
            in.prompt_tokens = *prompt;
            in.output_tokens = *output;
        } else {
            in.output_tokens = std::min(output.value_or(in.output_tokens), *context - 1);
            in.prompt_tokens = *context - in.output_tokens;
            out.guesses.push_back(TALLY_TEXT("tally::launch",
                                             "inference.prompt_tokens = %1, output_tokens = %2: "
                                             "the command sets only their sum, the longest "
                                             "sequence (%3)")
                                      .arg(in.prompt_tokens)
                                      .arg(in.output_tokens)
                                      .arg(*context));
        }
    } else {
        if (prompt) {
            in.prompt_tokens = *prompt;
        }
        if (output) {
            in.output_tokens = *output;
        }
        out.guesses.push_back(
            TALLY_TEXT("tally::launch",
                       "inference.prompt_tokens = %1, output_tokens = %2: the command does not "
                       "set the longest sequence (the engine takes the model's context, %3 "
                       "tokens, and needs its KV cache to hold one such sequence)")
                .arg(in.prompt_tokens)
                .arg(in.output_tokens)
                .arg(spec.model.context_length > 0 ? std::to_string(spec.model.context_length)
                                                   : std::string("?")));
    }
    if (const auto batch = carried_int("inference.batch"); batch && !sequences) {
        in.batch = *batch;
        in.concurrency = 0;
    } else if (sequences) {
        const std::optional<std::int64_t> static_batch = carried_int("inference.batch");
        const std::optional<std::int64_t> clients = carried_int("inference.concurrency");
        if (static_batch && clients && *clients == 0 && *static_batch == *sequences) {
            in.batch = *static_batch;  // the plan was a static batch of that many
            in.concurrency = 0;
        } else {
            in.concurrency = *sequences;
        }
    } else {
        in.concurrency = carried_int("inference.concurrency").value_or(in.concurrency);
        if (in.concurrency > 0) {
            out.guesses.push_back(TALLY_TEXT("tally::launch",
                                             "inference.concurrency = %1: the command does not "
                                             "limit the sequences a step runs")
                                      .arg(in.concurrency));
        } else {
            out.guesses.push_back(
                TALLY_TEXT("tally::launch",
                           "inference.batch = %1, a static batch: the command does not limit the "
                           "sequences a step runs; set inference.concurrency to the requests "
                           "you expect in flight")
                    .arg(in.batch));
        }
    }
    // The tokens a step takes and chunked prefill.
    if (*target == ServingTarget::sglang) {
        if (chunk) {
            in.chunked_prefill = *chunk > 0;
            in.max_batched_tokens = *chunk > 0 ? *chunk : prefill_tokens.value_or(16384);
        } else if (prefill_tokens) {
            in.max_batched_tokens = *prefill_tokens;
        }
    } else {
        if (step_tokens) {
            in.max_batched_tokens = *step_tokens;
        }
        // trtllm-serve chunks prompts only when told (--enable_chunked_prefill); vLLM's V1
        // engine chunks by default.
        in.chunked_prefill = chunked.value_or(*target == ServingTarget::vllm);
    }
    // The memory share: set only where it is not the engine's default, so that the plan says
    // the engine's default as it is.
    // The share is the command's engine's: a plan timed as another engine keeps that engine's
    // default (the export writes the command's engine's default then).
    if (memory && in.engine != engine) {
        in.memory_fraction.reset();
    } else if (memory) {
        InferenceSpec defaults = in;
        defaults.memory_fraction.reset();
        if (*memory != kv_pool(defaults).fraction) {
            in.memory_fraction = *memory;
        } else {
            in.memory_fraction.reset();
        }
    }
    // A layout the plan cannot serve (tp not dividing the heads, ep without experts) is refused
    // as `tally infer` refuses it, naming the field, on a part the catalog knows.
    if (const HardwareProfile* hw = find_builtin_hardware(spec.cluster.gpu)) {
        if (std::optional<FieldError> error = check_inference(spec, *hw)) {
            // Named by the flag that set the field, where one did: "-tp (inference.tp)".
            const auto flag =
                std::find_if(out.read.rbegin(), out.read.rend(),
                             [&](const LaunchSetting& r) { return r.spec_field == error->field; });
            if (flag != out.read.rend()) {
                error->field = fmt::format("{} ({})", flag->key, error->field);
            }
            throw SpecError(std::move(*error));
        }
    }
    // Where the plan came from and what it assumed, as a training import says it (launch_config's
    // describe): the plan it was laid over described another one.
    spec.description =
        launch::import_description(file_name, serving_target_title(*target),
                                   {out.read.size(), out.ignored.size()}, out.guesses, out.unknown);
    out.spec = spec;
    return out;
}

}  // namespace tally
