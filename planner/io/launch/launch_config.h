#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/spec.h"
#include "planner/core/text.h"

namespace tally {

// The training frameworks whose launch configuration a plan becomes, and is read back from.
enum class LaunchTarget {
    megatron,    // Megatron-LM's command-line arguments, behind torchrun
    nemo,        // NeMo 2 recipe overrides (`nemo llm pretrain --factory ... key=value ...`)
    torchtitan,  // a torchtitan TOML job config
    deepspeed,   // a DeepSpeed JSON config
    accelerate,  // a Hugging Face accelerate config (FSDP), YAML
};

const std::vector<LaunchTarget>& launch_targets();
std::string_view to_string(LaunchTarget target);  // "megatron", "nemo", ...
std::optional<LaunchTarget> launch_target_from_string(std::string_view name);
// "Megatron-LM arguments", in English: a literal, translatable under "tally::launch".
std::string_view launch_target_title(LaunchTarget target);
std::string_view launch_target_extension(LaunchTarget target);  // "sh", "toml", "json", "yaml"
// The framework release whose settings a target's file uses, as its header names it
// ("Megatron-LM core_v0.12.0"): the sources its names were checked against.
std::string_view launch_target_version(LaunchTarget target);

// The spec as the target's launch configuration, in the framework's own names. A setting of the
// run the target cannot express (ZeRO-2 for Megatron-LM, a model torchtitan has no flavour for)
// throws SpecError naming the spec field, its value and what the target allows; nothing is
// dropped. The plan's own settings that no framework reads (the GPU type, the MFU, the price, the
// FLOPs formula) are written, where the form has comments, as "# tally: FIELD = VALUE" lines that
// import_launch_config() reads back; a JSON config cannot carry them. The notes below head the
// file as comments.
std::string export_launch_config(const PlanSpec& spec, LaunchTarget target);

// Where the target will run the plan other than the spec says, without refusing it (torchtitan's
// tensor parallelism always shards the sequence): one sentence each; empty when none.
std::vector<Text> launch_export_notes(const PlanSpec& spec, LaunchTarget target);

// One setting of an imported file: its name there, the value as written, its line (0 where the
// form has none, as in JSON), and the spec field it set (empty when none).
struct LaunchSetting {
    std::string key;
    std::string value;
    int line = 0;
    std::string spec_field;
};

struct LaunchImportOptions {
    std::optional<LaunchTarget> from;  // nullopt: detect from the name and the text
    // The model when the file does not describe it (DeepSpeed, accelerate): from a Hugging Face
    // config.json. When the file names the model too, this one wins and the file's is reported.
    std::optional<ModelSpec> model;
    // Where `model` came from, for the guesses the import lists (marked for translation under
    // "tally::launch").
    const char* model_source =
        QT_TRANSLATE_NOOP("tally::launch", "from the config.json given beside the file");
    // The world size when the file leaves it to the launcher (torchtitan's shard degree -1).
    std::optional<std::int64_t> gpus;
    // The spec the file's settings are laid over; nullopt: PlanSpec's defaults.
    std::optional<PlanSpec> base;
    // false: a name the target's table does not know is an error; true: it is listed.
    bool allow_unknown = false;
};

struct LaunchImport {
    LaunchTarget target = LaunchTarget::megatron;
    PlanSpec spec;
    std::vector<LaunchSetting> read;     // settings that set a spec field
    std::vector<LaunchSetting> ignored;  // the framework's settings that do not change the plan
    std::vector<LaunchSetting> unknown;  // names not in the target's table (allow_unknown only)
    // Each spec field the plan rests on that the file did not give: "field = value: why".
    std::vector<Text> guesses;
};

// Guesses the form: by the file's extension, then by its text (a Megatron log's argument block,
// `--` arguments, JSON, TOML, YAML).
std::optional<LaunchTarget> detect_launch_target(std::string_view text, std::string_view file_name);

// Reads a launch configuration into a spec. A malformed file, a value of the wrong type, an
// unknown name (unless allow_unknown), contradictory settings or a layout check() refuses throw
// SpecError naming the setting (and its line). The guesses are also written into the spec's
// description, and the name says where the plan came from.
LaunchImport import_launch_config(const std::string& text, const std::string& file_name,
                                  const LaunchImportOptions& options);

// The settings of a `target` file that no row of its table reads (the ones an import lists as
// ignored or unknown: a learning rate, data paths), found without laying the file on a plan, so
// that a file an import would refuse (no --vocab-size) still names them. Tally's own "# tally:"
// lines are not among them. A file its form cannot parse throws SpecError.
std::vector<LaunchSetting> launch_settings_not_read(const std::string& text, LaunchTarget target);

// Model dimensions of a torchtitan flavour (torchtitan/models/<name>/__init__.py); nullopt when
// Tally has none for it.
std::optional<ModelSpec> torchtitan_flavour(std::string_view model_name, std::string_view flavour);

}  // namespace tally
