#include "ui/plan/import_launch_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "planner/core/errors.h"
#include "planner/io/hf_config.h"
#include "ui/common/file_dialogs.h"
#include "ui/common/file_io.h"
#include "ui/common/launch_copy.h"
#include "ui/i18n/translate_text.h"
#include "ui/plan/plan_document.h"

namespace tally::ui {

namespace {

void addGroup(QTreeWidget* tree, const QString& title, const std::vector<LaunchSetting>& settings,
              bool expanded) {
    auto* group = new QTreeWidgetItem(tree, {title.arg(settings.size())});
    for (const LaunchSetting& s : settings) {
        auto* item = new QTreeWidgetItem(
            group, {QString::fromStdString(s.key), QString::fromStdString(s.value),
                    s.line > 0 ? QString::number(s.line) : QString(),
                    QString::fromStdString(s.spec_field)});
        item->setToolTip(1, item->text(1));
    }
    group->setExpanded(expanded);
    group->setFirstColumnSpanned(true);
}

}  // namespace

ImportLaunchDialog::ImportLaunchDialog(PlanDocument* document, const QString& path, QWidget* parent)
    : QDialog(parent),
      m_document(document),
      m_path(path),
      m_format(new QComboBox(this)),
      m_modelConfig(new QLineEdit(this)),
      m_gpus(new QSpinBox(this)),
      m_preview(new QTreeWidget(this)),
      m_error(new QLabel(this)),
      m_apply(nullptr) {
    setObjectName(QStringLiteral("importLaunchDialog"));
    setWindowTitle(tr("Import run configuration: %1").arg(QFileInfo(path).fileName()));
    if (!readWholeFile(path, &m_text, &m_readError)) {
        m_text.clear();
    }

    m_format->setObjectName(QStringLiteral("launchFormat"));
    m_format->addItem(tr("Recognise from the file"), -1);
    for (LaunchTarget t : launch_targets()) {
        m_format->addItem(launchTargetTitle(t), static_cast<int>(t));
    }
    m_modelConfig->setObjectName(QStringLiteral("launchModelConfig"));
    m_modelConfig->setPlaceholderText(tr("the current plan's model"));
    m_modelConfig->setToolTip(
        tr("A Hugging Face config.json for the model: DeepSpeed and accelerate configurations do "
           "not describe it, and it replaces what a Megatron-LM, NeMo or torchtitan file says."));
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file =
            chooseOpenPath(this, tr("The model's config.json"), QFileInfo(m_path).absolutePath(),
                           tr("config.json (*.json);;All files (*)"));
        if (!file.isEmpty()) {
            m_modelConfig->setText(file);
        }
    });
    m_gpus->setObjectName(QStringLiteral("launchGpus"));
    m_gpus->setRange(0, 1 << 20);
    m_gpus->setSpecialValueText(tr("from the file"));
    m_gpus->setToolTip(
        tr("The world size, where the file leaves it to the launcher "
           "(torchtitan's data_parallel_shard_degree = -1)."));

    m_preview->setObjectName(QStringLiteral("launchPreview"));
    m_preview->setColumnCount(4);
    m_preview->setHeaderLabels({tr("Setting"), tr("Value"), tr("Line"), tr("Plan field")});
    m_preview->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_preview->setRootIsDecorated(true);
    m_error->setObjectName(QStringLiteral("launchError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_apply = buttons->addButton(tr("Apply to the plan"), QDialogButtonBox::AcceptRole);
    m_apply->setObjectName(QStringLiteral("applyLaunchImport"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_apply, &QPushButton::clicked, this, [this] {
        if (applyImport()) {
            accept();
        }
    });

    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(m_modelConfig, 1);
    modelRow->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("File"), new QLabel(QFileInfo(path).absoluteFilePath(), this));
    form->addRow(tr("Format"), m_format);
    form->addRow(tr("Model config.json"), modelRow);
    form->addRow(tr("GPUs"), m_gpus);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_preview, 1);
    layout->addWidget(buttons);
    resize(820, 600);

    connect(m_format, &QComboBox::currentIndexChanged, this, &ImportLaunchDialog::reload);
    connect(m_modelConfig, &QLineEdit::editingFinished, this, &ImportLaunchDialog::reload);
    connect(m_modelConfig, &QLineEdit::textChanged, this, [this](const QString& text) {
        if (QFileInfo(text).isFile() || text.isEmpty()) {
            reload();
        }
    });
    connect(m_gpus, &QSpinBox::valueChanged, this, &ImportLaunchDialog::reload);
    reload();
}

QString ImportLaunchDialog::errorText() const {
    return m_error->text();
}

void ImportLaunchDialog::reload() {
    m_result.reset();
    m_preview->clear();
    QString error = m_readError;
    if (error.isEmpty()) {
        LaunchImportOptions options;
        const int format = m_format->currentData().toInt();
        if (format >= 0) {
            options.from = static_cast<LaunchTarget>(format);
        }
        if (m_gpus->value() > 0) {
            options.gpus = m_gpus->value();
        }
        options.allow_unknown = true;
        options.base = m_document->spec();
        try {
            const std::string file = m_path.toStdString();
            const std::string text = m_text.toStdString();
            const std::optional<LaunchTarget> target =
                options.from ? options.from : detect_launch_target(text, file);
            if (!m_modelConfig->text().isEmpty()) {
                options.model = load_hf_config(m_modelConfig->text().toStdString(), "config.json");
            } else if (target == LaunchTarget::deepspeed || target == LaunchTarget::accelerate) {
                options.model = m_document->spec().model;
                options.model_source =
                    QT_TRANSLATE_NOOP("tally::launch", "kept from the current plan");
            }
            m_result = import_launch_config(text, file, options);
        } catch (const SpecError& e) {
            error = translatedFieldError(e.error());
        }
    }
    if (m_result) {
        m_error->setText(tr("Read as %1.").arg(launchTargetTitle(m_result->target)));
        m_error->setStyleSheet(QString());
        // What needs a look first: what Tally did not read and what it assumed.
        addGroup(m_preview, tr("Not read: unknown to Tally (%1)"), m_result->unknown, true);
        auto* assumed =
            new QTreeWidgetItem(m_preview, {tr("Assumed (%1)").arg(m_result->guesses.size())});
        for (const Text& g : m_result->guesses) {
            auto* item = new QTreeWidgetItem(assumed, {translatedText(g)});
            item->setFirstColumnSpanned(true);
        }
        assumed->setExpanded(true);
        assumed->setFirstColumnSpanned(true);
        addGroup(m_preview, tr("Read into the plan (%1)"), m_result->read, true);
        addGroup(m_preview, tr("Ignored: no bearing on the plan (%1)"), m_result->ignored, false);
    } else {
        m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
        m_error->setText(tr("Not imported: %1").arg(error));
    }
    m_apply->setEnabled(m_result.has_value());
}

bool ImportLaunchDialog::applyImport() {
    if (!m_result) {
        return false;
    }
    m_document->edit(m_result->spec,
                     tr("Import run configuration %1").arg(QFileInfo(m_path).fileName()));
    return true;
}

}  // namespace tally::ui
