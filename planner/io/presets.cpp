#include "planner/io/presets.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "planner/core/errors.h"
#include "planner/io/json_reader.h"
#include "planner/io/spec_json.h"
#include "resources/embedded_resources.h"

namespace tally {

namespace {

std::vector<ModelPreset> load_presets() {
    std::vector<ModelPreset> out;
    for (const EmbeddedFile& f : embedded_files()) {
        if (!f.path.starts_with("models/") || !f.path.ends_with(".json")) {
            continue;
        }
        const std::string where = "resources/" + std::string(f.path);
        const nlohmann::json doc = nlohmann::json::parse(f.contents);
        ObjectReader r(doc, where);
        ModelPreset p;
        p.id = r.string("id").value_or("");
        p.name = r.string("name").value_or(p.id);
        p.source = r.string("source").value_or("");
        p.notes = r.string("notes").value_or("");
        p.checkpoint = r.string("checkpoint").value_or("");
        if (const std::optional<std::string> dtype = r.string("checkpoint_dtype")) {
            p.checkpoint_dtype = parse_dtype(*dtype);
            if (!p.checkpoint_dtype) {
                throw std::runtime_error(where + ": checkpoint_dtype: not a dtype: " + *dtype);
            }
        }
        const nlohmann::json* model = r.raw("model");
        if (p.id.empty() || p.source.empty() || !model) {
            throw std::runtime_error(where + ": a preset needs id, source and model");
        }
        p.model = model_spec_from_json(*model, where + ".model");
        if (p.model.name.empty()) {
            p.model.name = p.name;
        }
        r.finish({"id", "name", "source", "notes", "checkpoint", "checkpoint_dtype", "model"});
        out.push_back(std::move(p));
    }
    std::sort(out.begin(), out.end(),
              [](const ModelPreset& a, const ModelPreset& b) { return a.id < b.id; });
    return out;
}

}  // namespace

const std::vector<ModelPreset>& model_presets() {
    static const std::vector<ModelPreset> presets = load_presets();
    return presets;
}

const ModelPreset* find_model_preset(std::string_view id) {
    for (const ModelPreset& p : model_presets()) {
        if (p.id == id) {
            return &p;
        }
    }
    return nullptr;
}

std::string model_preset_ids() {
    std::string ids;
    for (const ModelPreset& p : model_presets()) {
        ids += (ids.empty() ? "" : ", ") + p.id;
    }
    return ids;
}

}  // namespace tally
