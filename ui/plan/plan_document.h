#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

#include "planner/core/errors.h"
#include "planner/core/spec.h"
#include "planner/text/plan_views.h"

class QUndoStack;

namespace tally::ui {

class HardwareCatalog;

// The plan being edited: the spec as the user left it, the results of the last spec the planner
// accepted, and the planner's complaint about the current one. Every edit goes through the undo
// stack; every accepted spec is evaluated at once (evaluate() takes microseconds) and announced
// with resultsChanged(). A rejected spec keeps the last good results drawn and names the field in
// error(). Not a widget: the forms and panels read it, the tests drive it.
class PlanDocument : public QObject {
    Q_OBJECT
public:
    explicit PlanDocument(const HardwareCatalog* catalog, QObject* parent = nullptr);
    ~PlanDocument() override;

    const PlanSpec& spec() const { return m_spec; }
    // The results of the last spec check() accepted; never null.
    const std::shared_ptr<const PlanViews>& views() const { return m_views; }
    // Why the current spec is not drawn (the field as check() names it, e.g. "model.heads").
    const std::optional<FieldError>& error() const { return m_error; }
    // Further fields that check() would refuse once error()'s field were fixed, found by putting
    // the last accepted plan's value in each refused field in turn: so every invalid field is
    // marked at once, not one after another. Empty when there is no error.
    const std::vector<FieldError>& otherErrors() const { return m_otherErrors; }
    QUndoStack* undoStack() const { return m_undo; }
    // A serving spec (an inference block) needs no data or training block, as `tally infer`
    // reads it: when check() refuses such a spec for its data or training part (a missing block,
    // a training layout that does not suit cluster.gpus) and the serving planner accepts it, the
    // serving plan of the current spec (spec, hardware and serving filled in; no training
    // plan). The Inference panel and the headline draw it, and the spec can be saved; the
    // training panels keep the last training plan, error() names the training part's field.
    // Null in every other state.
    const std::shared_ptr<const PlanViews>& servingViews() const { return m_servingViews; }
    // What the headline shows: the serving views above when there are any; else, while the spec
    // is refused, those of the last spec accepted (a serving spec without its training part
    // included, so a refused serving field greys its serving figures, not another spec's
    // training plan); else views().
    const PlanViews& headlineViews() const;
    // The hardware profile the current spec names (cluster.gpu), or nullptr when the catalog has
    // none of that id.
    const HardwareProfile* hardware() const;
    // The profiles a spec's cluster.gpu is looked up in: the catalog's and the workspace's.
    const HardwareCatalog* catalog() const { return m_catalog; }

    // A user's edit, undoable. Edits carrying the same gesture id (> 0; one slider drag) merge
    // into one undo step; 0 makes a step of its own.
    void edit(const PlanSpec& spec, const QString& description, int gesture = 0);
    // A fresh gesture id for a drag that starts now.
    static int newGesture();
    // Replaces the plan and forgets the undo history (a new plan, a file opened, a restore).
    void reset(const PlanSpec& spec);
    // Starts an unsaved plan from `spec` (File > New, an example): like reset(), and forgets the
    // file, so Save asks where instead of overwriting the file that was open.
    void startNew(const PlanSpec& spec);
    // The plan the window had when it last closed (Autosave::restore()): with no undo history,
    // the file it was saved to ("": none), and whether it had changes not saved to a file.
    // `file_sha256`: the SHA-256 of the file's bytes when the plan was last opened or saved
    // (empty: not known), so that a save after a restart still sees another program's changes.
    void restore(const PlanSpec& spec, const QString& file, bool modified,
                 const QByteArray& file_sha256 = {});
    // After a language switch: a shipped example's name and description, where the plan still
    // has them, in the new language (relocalizedExampleText()). No undo step, and the plan stays
    // as saved or unsaved as it was: the texts are the same example's.
    void relocalizeExampleTexts();
    // Forgets the file the plan was opened from or saved to, keeping the plan and its history:
    // Save then asks where (a saved plan opened from the workspace is not that file's plan).
    void forgetFile();

    // Replaces the model with a Hugging Face config.json (undoable). False and a message naming
    // the file and the problem when it cannot be read; `notes` receives what the import chose
    // that a user may change (load_hf_config()).
    bool importHfConfig(const QString& path, QString* error, QStringList* notes = nullptr);
    // Adds an operation to the roofline (undoable); the planner's complaint if it cannot be costed.
    std::optional<FieldError> addOperation(const OpSpec& op);
    void removeOperation(int index);

    // Files in the CLI's spec format (tally plan SPEC.json reads them).
    bool open(const QString& path, QString* error);
    // Refuses while the spec has an error: what is saved is always a plan the planner accepts.
    bool save(const QString& path, QString* error);
    QString filePath() const { return m_filePath; }
    // Whether the plan's file now holds other bytes than Tally last read from it or wrote to it
    // (another program or window changed it): saving would overwrite that. False when the file
    // is gone or unreadable, or when what was last on disk is unknown (a plan restored from an
    // autosave that kept no digest).
    bool fileChangedOnDisk() const;
    // The SHA-256 of the bytes Tally last read from or wrote to filePath() (empty: not known).
    QByteArray fileSha256() const { return m_fileSha256; }
    // Whether the plan differs from the one last opened, saved or started: edits since, unless
    // they brought it back to that plan exactly (a field typed wrong and back, a value changed
    // and returned), which is nothing to save.
    bool isModified() const;
    // The last accepted plan as CSV and as a Markdown report (planner/text/report.h).
    bool exportCsv(const QString& path, QString* error) const;
    bool exportMarkdown(const QString& path, QString* error) const;
    // The JSON text of the last accepted spec (what save() and the autosave write).
    QByteArray acceptedSpecJson() const;

    // Which variable the memory chart sweeps (a view choice, not part of the plan or its history).
    SweepVariable memorySweepVariable() const { return m_memoryVariable; }
    void setMemorySweepVariable(SweepVariable variable);

signals:
    void specChanged();
    void resultsChanged();
    void errorChanged();
    void filePathChanged();
    void modifiedChanged(bool modified);

private:
    friend class SpecEditCommand;
    void apply(const PlanSpec& spec);
    // The plan as last opened, saved or started is `spec`; nullopt: none (a restored plan that
    // had unsaved edits), so only the undo stack's clean state says.
    void markSaved(std::optional<PlanSpec> spec);
    // Emits modifiedChanged() when isModified() changed.
    void updateModified();
    std::vector<FieldError> otherFieldErrors(const FieldError& first,
                                             const HardwareProfile& hardware) const;
    // True, with the reason in `error`, while the reports would show another spec's training
    // plan (a serving spec without its training part).
    bool refuseTrainingReport(QString* error) const;

    const HardwareCatalog* m_catalog;
    QUndoStack* m_undo;
    PlanSpec m_spec;
    PlanSpec m_acceptedSpec;
    std::optional<PlanSpec> m_savedSpec;
    bool m_modified = false;  // what modifiedChanged() last said
    std::vector<FieldError> m_otherErrors;
    std::shared_ptr<const PlanViews> m_views;
    std::shared_ptr<const PlanViews> m_servingViews;
    // The serving views of the last spec accepted when it was a serving spec without its training
    // part; null once a whole plan is accepted.
    std::shared_ptr<const PlanViews> m_lastServingOnly;
    std::optional<FieldError> m_error;
    QString m_filePath;
    // The SHA-256 of m_filePath's bytes as last read or written; empty: not known.
    QByteArray m_fileSha256;
    SweepVariable m_memoryVariable = SweepVariable::micro_batch;
};

// "model.heads: 7 is not allowed; must divide model.hidden (8192) ..." as the planner words it.
QString errorText(const FieldError& error);

}  // namespace tally::ui
