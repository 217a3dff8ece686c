#include "ui/plan/plan_document.h"

#include <algorithm>
#include <variant>

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QUndoCommand>
#include <QUndoStack>
#include <atomic>
#include <nlohmann/json.hpp>

#include "planner/io/examples.h"
#include "planner/io/hf_config.h"
#include "planner/io/presets.h"
#include "planner/io/spec_json.h"
#include "planner/roofline/operations.h"
#include "planner/serving/inference.h"
#include "planner/text/report.h"
#include "ui/common/file_io.h"
#include "ui/common/hardware_catalog.h"
#include "ui/common/number_text.h"
#include "ui/i18n/translate_text.h"
#include "ui/plan/example_text.h"
#include "ui/plan/spec_fields.h"

namespace tally::ui {

namespace {

// Every mergeable edit shares this id; SpecEditCommand::mergeWith() then merges only edits of
// the same gesture.
constexpr int kMergeableId = 0x5ec;

}  // namespace

// One edit: the spec before and after. Slider drags merge into one step (same gesture id).
class SpecEditCommand : public QUndoCommand {
public:
    SpecEditCommand(PlanDocument* document, PlanSpec before, PlanSpec after,
                    const QString& description, int gesture)
        : QUndoCommand(description),
          m_document(document),
          m_before(std::move(before)),
          m_after(std::move(after)),
          m_gesture(gesture) {}

    void undo() override { m_document->apply(m_before); }
    void redo() override { m_document->apply(m_after); }
    int id() const override { return m_gesture > 0 ? kMergeableId : -1; }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* next = static_cast<const SpecEditCommand*>(other);
        if (next->m_gesture != m_gesture) {
            return false;
        }
        m_after = next->m_after;
        // The step is named for where the drag ended, not a value it passed on the way.
        setText(next->text());
        return true;
    }

private:
    PlanDocument* m_document;
    PlanSpec m_before;
    PlanSpec m_after;
    int m_gesture;
};

QString errorText(const FieldError& error) {
    return translatedFieldError(error);
}

PlanDocument::PlanDocument(const HardwareCatalog* catalog, QObject* parent)
    : QObject(parent), m_catalog(catalog), m_undo(new QUndoStack(this)) {
    connect(m_undo, &QUndoStack::cleanChanged, this, &PlanDocument::updateModified);
    // A profile edited or removed in the workspace changes what the current spec evaluates to.
    connect(catalog, &HardwareCatalog::profilesChanged, this, [this] { apply(m_spec); });
    apply(localizedExample(start_plan_spec()));
    if (!m_views) {
        // A catalog without the start plan's GPU: draw it on the shipped profile, so there is
        // always a plan to show while the user picks another GPU.
        const PlanSpec spec = localizedExample(start_plan_spec());
        m_views = std::make_shared<const PlanViews>(
            compute_plan_views(spec, resolve_builtin_hardware(spec), m_memoryVariable));
        m_acceptedSpec = spec;
    }
    m_savedSpec = m_spec;
}

PlanDocument::~PlanDocument() = default;

const PlanViews& PlanDocument::headlineViews() const {
    if (m_servingViews) {
        return *m_servingViews;
    }
    if (m_error && m_lastServingOnly) {
        return *m_lastServingOnly;
    }
    return *m_views;
}

const HardwareProfile* PlanDocument::hardware() const {
    return m_catalog->find(m_spec.cluster.gpu);
}

int PlanDocument::newGesture() {
    static std::atomic<int> next{1};
    return next++;
}

namespace {

// The model's name follows its dimensions: a preset's name stays while the model is that preset's
// architecture (presets.h: the form offers no name of its own), and goes when an edit makes it
// another model (Llama 3 70B at 48 layers is no longer Llama 3 70B), so that the title, a saved
// plan's model column and an export's header do not name a model the plan no longer has. Back
// on a preset's dimensions, the model takes that preset's name again.
void nameModelByItsPreset(ModelSpec& model) {
    const std::vector<ModelPreset>& presets = model_presets();
    const ModelSpec key = architecture_only(model);
    const auto named = std::find_if(presets.begin(), presets.end(),
                                    [&](const ModelPreset& p) { return p.name == model.name; });
    if (named != presets.end()) {
        if (architecture_only(named->model) != key) {
            model.name.clear();
        }
        return;
    }
    if (model.name.empty()) {
        const auto same = std::find_if(presets.begin(), presets.end(), [&](const ModelPreset& p) {
            return architecture_only(p.model) == key;
        });
        if (same != presets.end()) {
            model.name = same->name;
        }
    }
}

}  // namespace

void PlanDocument::edit(const PlanSpec& spec, const QString& description, int gesture) {
    PlanSpec next = spec;
    if (next.model.name != m_spec.model.name ||
        architecture_only(next.model) != architecture_only(m_spec.model)) {
        nameModelByItsPreset(next.model);
    }
    m_undo->push(new SpecEditCommand(this, m_spec, next, description, gesture));
}

void PlanDocument::reset(const PlanSpec& spec) {
    m_undo->clear();
    apply(spec);
    markSaved(m_spec);
}

void PlanDocument::markSaved(std::optional<PlanSpec> spec) {
    m_savedSpec = std::move(spec);
    updateModified();
}

void PlanDocument::updateModified() {
    const bool modified = isModified();
    if (modified != m_modified) {
        m_modified = modified;
        emit modifiedChanged(modified);
    }
}

void PlanDocument::startNew(const PlanSpec& spec) {
    reset(spec);
    m_undo->setClean();
    markSaved(m_spec);
    forgetFile();
}

namespace {
QByteArray sha256(const QByteArray& bytes) {
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
}
}  // namespace

void PlanDocument::restore(const PlanSpec& spec, const QString& file, bool modified,
                           const QByteArray& file_sha256) {
    reset(spec);
    m_fileSha256 = file.isEmpty() ? QByteArray() : file_sha256;
    if (m_filePath != file) {
        m_filePath = file;
        emit filePathChanged();
    }
    if (modified) {
        // Not clean at any index: File > Open and New ask before replacing it.
        m_undo->resetClean();
        markSaved(std::nullopt);
    }
}

void PlanDocument::relocalizeExampleTexts() {
    PlanSpec next = m_spec;
    next.name = relocalizedExampleText(m_spec.name);
    next.description = relocalizedExampleText(m_spec.description);
    if (next.name != m_spec.name || next.description != m_spec.description) {
        apply(next);
    }
}

void PlanDocument::forgetFile() {
    m_fileSha256.clear();
    if (!m_filePath.isEmpty()) {
        m_filePath.clear();
        emit filePathChanged();
    }
}

std::vector<FieldError> PlanDocument::otherFieldErrors(const FieldError& first,
                                                       const HardwareProfile& hw) const {
    // The value of `path` in `from` put into `to`; false when the form has no such field.
    // The training form's fields and the Inference panel's serving fields.
    const auto restore = [](const std::string& path, const PlanSpec& from, PlanSpec& to) {
        const auto put = [&](const FieldDescriptor& field) {
            return std::visit(
                [&](const auto& f) {
                    if (f.get == nullptr || f.set == nullptr) {
                        return false;
                    }
                    f.set(to, f.get(from));
                    return true;
                },
                field);
        };
        for (const SectionFields& section : specFields()) {
            for (const FieldDescriptor& field : section.fields) {
                if (path == pathOf(field)) {
                    return put(field);
                }
            }
        }
        for (const FieldDescriptor& field : inferenceFields()) {
            if (path == pathOf(field)) {
                return put(field);
            }
        }
        return false;
    };
    std::vector<FieldError> found;
    std::vector<std::string> seen{first.field};
    PlanSpec probe = m_spec;
    std::string fixing = first.field;
    constexpr int kMostFields = 8;
    for (int i = 0; i < kMostFields; ++i) {
        if (!restore(fixing, m_acceptedSpec, probe)) {
            break;
        }
        const std::optional<FieldError> next = check(probe, hw);
        if (!next || std::find(seen.begin(), seen.end(), next->field) != seen.end()) {
            break;
        }
        found.push_back(*next);
        seen.push_back(next->field);
        fixing = next->field;
    }
    return found;
}

void PlanDocument::apply(const PlanSpec& spec) {
    m_spec = spec;
    std::optional<FieldError> error;
    const HardwareProfile* hw = m_catalog->find(m_spec.cluster.gpu);
    if (!hw) {
        error = FieldError{"cluster.gpu", m_spec.cluster.gpu, "one of the GPUs in the list"};
    } else {
        // check() names tp, pp, micro-batch and GPUs < 1 before any rule divides by them.
        error = check(m_spec, *hw);
    }
    if (!error) {
        try {
            m_views = std::make_shared<const PlanViews>(
                compute_plan_views(m_spec, *hw, m_memoryVariable));
            m_acceptedSpec = m_spec;
            m_lastServingOnly.reset();
        } catch (const SpecError& e) {
            error = e.error();
        } catch (const std::exception& e) {
            error = FieldError{"", "", e.what()};
        }
    }
    // A serving spec refused only for its training part (no data block, or a training layout
    // that does not suit the GPUs, as `tally infer` allows) is still a plan: its serving figures
    // are drawn and it can be saved. check_inference() checks the spec with data and training
    // set aside, so when it accepts, what check() refused was theirs, whichever field it named
    // (the training layout's rule names cluster.gpus).
    const bool hadServingViews = m_servingViews != nullptr;
    m_servingViews.reset();
    if (error && hw && is_serving_plan(m_spec)) {
        if (auto serving_error = check_inference(m_spec, *hw)) {
            // What keeps the serving plan from being drawn: the same model or cluster field
            // check() named, or the serving block's own (the fields of the training part check()
            // also refuses are marked beside it, otherErrors()).
            error = std::move(serving_error);
        } else {
            m_servingViews = std::make_shared<const PlanViews>(compute_serving_views(m_spec, *hw));
            m_acceptedSpec = m_spec;
            m_lastServingOnly = m_servingViews;
        }
    }
    std::vector<FieldError> others =
        hw && error ? otherFieldErrors(*error, *hw) : std::vector<FieldError>{};
    const auto same = [](const FieldError& a, const FieldError& b) {
        return a.field == b.field && a.message() == b.message();
    };
    // What the window says of the error depends on whether the serving plan is drawn beside it.
    const bool errorChangedNow =
        error.has_value() != m_error.has_value() || (error && !same(*error, *m_error)) ||
        hadServingViews != (m_servingViews != nullptr) || others.size() != m_otherErrors.size() ||
        !std::equal(others.begin(), others.end(), m_otherErrors.begin(), same);
    m_error = std::move(error);
    m_otherErrors = std::move(others);
    emit specChanged();
    if (errorChangedNow) {
        emit errorChanged();
    }
    if (!m_error || m_servingViews) {
        emit resultsChanged();
    }
    updateModified();
}

bool PlanDocument::importHfConfig(const QString& path, QString* error, QStringList* notes) {
    try {
        PlanSpec next = m_spec;
        std::vector<Text> said;
        next.model = load_hf_config(path.toStdString(), "model.hf_config", &said);
        if (notes) {
            for (const Text& note : said) {
                notes->append(translatedText(note));
            }
        }
        if (next.model.name.empty()) {
            next.model.name = QFileInfo(path).dir().dirName().toStdString();
        }
        edit(next, tr("Import %1").arg(QFileInfo(path).fileName()));
        return true;
    } catch (const std::exception& e) {
        if (error) {
            *error = qs(e.what());
        }
        return false;
    }
}

std::optional<FieldError> PlanDocument::addOperation(const OpSpec& op) {
    const std::string path = "ops[" + std::to_string(m_spec.ops.size()) + "]";
    try {
        op_cost(op, path);
    } catch (const SpecError& e) {
        return e.error();
    }
    PlanSpec next = m_spec;
    next.ops.push_back(op);
    edit(next, tr("Add operation %1").arg(qs(op.name.empty() ? to_string(op.kind) : op.name)));
    return std::nullopt;
}

void PlanDocument::removeOperation(int index) {
    if (index < 0 || static_cast<std::size_t>(index) >= m_spec.ops.size()) {
        return;
    }
    PlanSpec next = m_spec;
    const OpSpec removed = next.ops[static_cast<std::size_t>(index)];
    next.ops.erase(next.ops.begin() + index);
    edit(next, tr("Remove operation %1")
                   .arg(qs(removed.name.empty() ? to_string(removed.kind) : removed.name)));
}

bool PlanDocument::open(const QString& path, QString* error) {
    QByteArray text;
    if (!readWholeFile(path, &text, error)) {
        return false;
    }
    try {
        // A shipped example opened as a file reads as it does from File > Examples: its name and
        // description in the user's language (any other plan's are its own and stay as written).
        const PlanSpec spec = localizedExample(
            plan_spec_from_text(text.toStdString(), QFileInfo(path).absolutePath().toStdString()));
        reset(spec);
    } catch (const std::exception& e) {
        if (error) {
            *error = tr("%1 is not a plan Tally can read: %2").arg(path, qs(e.what()));
        }
        return false;
    }
    // Kept absolute: the autosave records it, and a later start from another folder must find
    // this file, not one of the same relative name there.
    m_filePath = QFileInfo(path).absoluteFilePath();
    m_fileSha256 = sha256(text);
    m_undo->setClean();
    markSaved(m_spec);
    emit filePathChanged();
    return true;
}

bool PlanDocument::fileChangedOnDisk() const {
    if (m_filePath.isEmpty() || m_fileSha256.isEmpty()) {
        return false;
    }
    QByteArray now;
    if (!QFileInfo::exists(m_filePath) || !readWholeFile(m_filePath, &now, nullptr)) {
        return false;
    }
    return sha256(now) != m_fileSha256;
}

QByteArray PlanDocument::acceptedSpecJson() const {
    return QByteArray::fromStdString(to_json(m_acceptedSpec).dump(2) + "\n");
}

bool PlanDocument::save(const QString& path, QString* error) {
    if (m_error && !m_servingViews) {
        if (error) {
            *error =
                tr("The plan is not saved while a field is rejected: %1").arg(errorText(*m_error));
        }
        return false;
    }
    const QByteArray text = acceptedSpecJson();
    if (!writeFileAtomically(path, text, error)) {
        return false;
    }
    m_fileSha256 = sha256(text);
    m_undo->setClean();
    markSaved(m_spec);
    if (const QString absolute = QFileInfo(path).absoluteFilePath(); m_filePath != absolute) {
        m_filePath = absolute;
        emit filePathChanged();
    }
    return true;
}

bool PlanDocument::isModified() const {
    return !m_undo->isClean() && !(m_savedSpec && *m_savedSpec == m_spec);
}

bool PlanDocument::refuseTrainingReport(QString* error) const {
    // The reports are of a training plan; a serving spec without one would export the last
    // training plan drawn, which is another spec's.
    if (m_servingViews && m_error) {
        if (error) {
            *error = tr("The report is of a training plan, and this serving spec has none (%1). "
                        "Complete or correct its training part to plan training, or use tally "
                        "infer for the serving plan.")
                         .arg(errorText(*m_error));
        }
        return true;
    }
    // A plan with a rejected field is not drawn: the figures on screen, greyed, are the last
    // plan that was, another spec, and a report of them under this plan's name would say so.
    if (m_error) {
        if (error) {
            *error = tr("The plan has an error (%1); the figures shown are of the last plan "
                        "drawn, not this one. Correct it to export its report.")
                         .arg(errorText(*m_error));
        }
        return true;
    }
    return false;
}

bool PlanDocument::exportCsv(const QString& path, QString* error) const {
    if (refuseTrainingReport(error)) {
        return false;
    }
    const std::string csv = plan_csv(m_views->spec, m_views->hardware, m_views->plan);
    // A UTF-8 byte order mark first: spreadsheets on Windows read a CSV without one in the
    // system's legacy code page, which garbles names in Chinese (or any non-ASCII text).
    return writeFileAtomically(path, QByteArray("\xEF\xBB\xBF") + QByteArray::fromStdString(csv),
                               error);
}

bool PlanDocument::exportMarkdown(const QString& path, QString* error) const {
    if (refuseTrainingReport(error)) {
        return false;
    }
    const std::string md =
        plan_markdown(m_views->spec, m_views->hardware, m_views->plan, uiTextTranslator());
    return writeFileAtomically(path, QByteArray::fromStdString(md), error);
}

void PlanDocument::setMemorySweepVariable(SweepVariable variable) {
    if (variable == m_memoryVariable) {
        return;
    }
    m_memoryVariable = variable;
    // Re-sweep the drawn plan (the last accepted one, also while the current spec is rejected).
    m_views = std::make_shared<const PlanViews>(
        compute_plan_views(m_views->spec, m_views->hardware, m_memoryVariable));
    emit resultsChanged();
}

}  // namespace tally::ui
