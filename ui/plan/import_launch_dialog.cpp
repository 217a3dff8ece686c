#include "ui/plan/import_launch_dialog.h"

#include <QApplication>
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

// The format box's data for a serving engine's command: this plus its ServingTarget.
constexpr int kServingFormat = 100;

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
    for (ServingTarget t : serving_targets()) {
        m_format->addItem(qApp->translate("tally::launch", serving_target_title(t).data()),
                          kServingFormat + static_cast<int>(t));
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
    m_serving.reset();
    m_preview->clear();
    QString error = m_readError;
    const int chosen = m_format->currentData().toInt();
    std::optional<ServingTarget> serving;
    if (chosen >= kServingFormat) {
        serving = static_cast<ServingTarget>(chosen - kServingFormat);
    } else if (chosen < 0 && error.isEmpty() &&
               !detect_launch_target(m_text.toStdString(), m_path.toStdString())) {
        serving = detect_serving_target(m_text.toStdString());
    }
    // A serving command's GPUs are tp x pp x its data-parallel replicas, and its model is the
    // checkpoint it serves: the world-size box does not apply, and the config.json replaces the
    // checkpoint's preset.
    m_gpus->setEnabled(!serving);
    m_modelConfig->setPlaceholderText(serving ? tr("the preset of the checkpoint it serves")
                                              : tr("the current plan's model"));
    if (error.isEmpty() && serving) {
        // A serving engine's command, laid over the current plan (its GPU stays).
        ServingImportOptions options;
        options.from = serving;
        options.allow_unknown = true;
        options.base = m_document->spec();
        try {
            if (!m_modelConfig->text().isEmpty()) {
                options.model = load_hf_config(m_modelConfig->text().toStdString(), "config.json");
            }
            m_serving = import_serving_command(m_text.toStdString(), m_path.toStdString(), options);
        } catch (const SpecError& e) {
            error = translatedFieldError(e.error());
        }
    } else if (error.isEmpty()) {
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
    // What needs a look first: what Tally did not read and what it assumed.
    const auto show = [this](const QString& title, const std::vector<LaunchSetting>& unknown,
                             const std::vector<Text>& guesses,
                             const std::vector<LaunchSetting>& read,
                             const std::vector<LaunchSetting>& ignored) {
        m_error->setText(tr("Read as %1.").arg(title));
        m_error->setStyleSheet(QString());
        addGroup(m_preview, tr("Not read: unknown to Tally (%1)"), unknown, true);
        auto* assumed = new QTreeWidgetItem(m_preview, {tr("Assumed (%1)").arg(guesses.size())});
        for (const Text& g : guesses) {
            auto* item = new QTreeWidgetItem(assumed, {translatedText(g)});
            item->setToolTip(0, item->text(0));  // a long assumption is cut at the dialog's edge
            item->setFirstColumnSpanned(true);
        }
        assumed->setExpanded(true);
        assumed->setFirstColumnSpanned(true);
        addGroup(m_preview, tr("Read into the plan (%1)"), read, true);
        addGroup(m_preview, tr("Ignored: no bearing on the plan (%1)"), ignored, false);
    };
    if (m_result) {
        show(launchTargetTitle(m_result->target), m_result->unknown, m_result->guesses,
             m_result->read, m_result->ignored);
    } else if (m_serving) {
        show(qApp->translate("tally::launch", serving_target_title(m_serving->target).data()),
             m_serving->unknown, m_serving->guesses, m_serving->read, m_serving->ignored);
    } else {
        m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
        m_error->setText(tr("Not imported: %1").arg(error));
    }
    m_apply->setEnabled(m_result.has_value() || m_serving.has_value());
}

bool ImportLaunchDialog::applyImport() {
    if (!m_result && !m_serving) {
        return false;
    }
    m_document->edit(m_result ? m_result->spec : m_serving->spec,
                     tr("Import run configuration %1").arg(QFileInfo(m_path).fileName()));
    return true;
}

}  // namespace tally::ui
