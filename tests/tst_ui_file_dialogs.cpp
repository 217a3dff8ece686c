// The app's file dialogs beside a workspace that a `tally` command writes at the same time.
//
// A file dialog on the workspace's folder used to read workspace.sqlite, -wal and -shm to pick
// their icons and type names. Closing those descriptors dropped the app's SQLite locks (POSIX
// locks belong to the process), so the next `tally` command to close the workspace removed its
// write-ahead log, and the app went on writing into a deleted file: its plans never reached the
// file and, when it quit, it copied stale pages over what the command had saved.
#include <QAbstractFileIconProvider>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemModel>
#include <QInputDialog>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

#include "planner/io/spec_json.h"
#include "planner/store/workspace.h"
#include "tests/cli_test_util.h"
#include "ui/common/file_dialogs.h"
#include "ui/session/workspace_session.h"
#include "ui/workspace/user_prompts.h"

using namespace tally;
using tally::test::run_tally;

namespace {

QString seedSpec() {
    return QStringLiteral(TALLY_SOURCE_DIR "/resources/examples/seed-70b-15t-1024-h100.json");
}

// The plan names `tally plans list --json` reports, sorted; "<failed: ...>" when it fails.
QStringList cliPlanNames(const QString& db) {
    const auto run = run_tally({QStringLiteral("plans"), QStringLiteral("list"),
                                QStringLiteral("--db"), db, QStringLiteral("--json")});
    if (run.exit_code != 0) {
        return {QStringLiteral("<failed: %1>").arg(QString::fromUtf8(run.err))};
    }
    QStringList names;
    for (const auto& plan : nlohmann::json::parse(run.out.toStdString())) {
        names << QString::fromStdString(plan.at("name").get<std::string>());
    }
    names.sort();
    return names;
}

// Descriptors of this process that point at a deleted file of the workspace (Linux's /proc).
QStringList deletedWorkspaceFiles(const QString& db) {
    QStringList deleted;
    const QDir fds(QStringLiteral("/proc/self/fd"));
    for (const QString& fd :
         fds.entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::System)) {
        const QString target = QFileInfo(fds.filePath(fd)).symLinkTarget();
        if (target.startsWith(db) && target.endsWith(QStringLiteral(" (deleted)"))) {
            deleted << target;
        }
    }
    return deleted;
}

}  // namespace

class TestUiFileDialogs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void dialogOnWorkspaceFolderKeepsEveryRow();
    void iconProviderNamesFilesByName();
    void nameDialogShowsTheWholeName();
    void saveDialogAddsTheFiltersExtension();
};

void TestUiFileDialogs::initTestCase() {
    QVERIFY(QFileInfo::exists(QStringLiteral(TALLY_BIN)));
    QVERIFY(QFileInfo::exists(seedSpec()));
}

void TestUiFileDialogs::dialogOnWorkspaceFolderKeepsEveryRow() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("workspace.sqlite"));
    ui::WorkspaceSession session;
    QString error;
    QVERIFY2(session.open(db, &error), qPrintable(error));
    const auto guiSave = [&](const char* name) {
        try {
            session.workspace()->save_plan(name, default_plan_spec());
        } catch (const std::exception& e) {
            QFAIL(qPrintable(QStringLiteral("the app could not save %1: %2")
                                 .arg(QLatin1String(name), QString::fromUtf8(e.what()))));
        }
    };
    const auto cliSave = [&](const char* name) {
        const auto run =
            run_tally({QStringLiteral("plans"), QStringLiteral("save"), seedSpec(),
                       QStringLiteral("--name"), QLatin1String(name), QStringLiteral("--db"), db});
        QVERIFY2(run.exit_code == 0, run.err.constData());
    };
    guiSave("gui-1");
    QVERIFY(QFileInfo::exists(db + QStringLiteral("-wal")));

    // A dialog made the way every dialog of the app is, on the workspace's folder, every file
    // listed in the detail view: the model looks at each entry's icon and type.
    QFileDialog dialog(nullptr, QStringLiteral("Open"), dir.path(),
                       QStringLiteral("All files (*)"));
    ui::makeFileDialogSafe(dialog);
    dialog.setViewMode(QFileDialog::Detail);
    dialog.show();
    auto* model = dialog.findChild<QFileSystemModel*>();
    QVERIFY(model != nullptr);
    const QModelIndex folder = model->index(dir.path());
    QTRY_VERIFY_WITH_TIMEOUT(model->rowCount(folder) >= 3, 10000);  // the file, -wal, -shm
    QStringList listed;
    for (int row = 0; row < model->rowCount(folder); ++row) {
        const QModelIndex entry = model->index(row, 0, folder);
        listed << model->fileName(entry);
        (void)model->fileIcon(entry);
        (void)model->type(entry);
        for (int column = 0; column < model->columnCount(folder); ++column) {
            (void)model->data(entry.siblingAtColumn(column), Qt::DisplayRole);
            (void)model->data(entry.siblingAtColumn(column), Qt::DecorationRole);
        }
    }
    QVERIFY2(listed.contains(QStringLiteral("workspace.sqlite-shm")),
             qPrintable(listed.join(u',')));
    QTest::qWait(300);  // let the view paint and the gatherer thread finish
    dialog.close();

    cliSave("cli-1");
    QVERIFY2(deletedWorkspaceFiles(db).isEmpty(), qPrintable(deletedWorkspaceFiles(db).join(u',')));
    guiSave("gui-2");
    // The command line sees what the app saved.
    QCOMPARE(cliPlanNames(db), (QStringList{QStringLiteral("cli-1"), QStringLiteral("gui-1"),
                                            QStringLiteral("gui-2")}));
    cliSave("cli-2");
    guiSave("gui-3");
    session.close();

    // After the app closed the workspace, every row from both sides is in the file.
    QCOMPARE(cliPlanNames(db),
             (QStringList{QStringLiteral("cli-1"), QStringLiteral("cli-2"), QStringLiteral("gui-1"),
                          QStringLiteral("gui-2"), QStringLiteral("gui-3")}));
}

void TestUiFileDialogs::iconProviderNamesFilesByName() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A PNG's bytes under a name with no known extension: content sniffing would call it an
    // image; a provider that never reads the file cannot know.
    const QString disguised = dir.filePath(QStringLiteral("picture.tallyunknown"));
    QFile file(disguised);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray("\x89PNG\r\n\x1a\n", 8) + QByteArray(64, '\0'));
    file.close();
    const QFileInfo info(disguised);
    const QString type = ui::nameOnlyIconProvider()->type(info);
    QVERIFY2(!type.contains(QStringLiteral("PNG"), Qt::CaseInsensitive), qPrintable(type));
    // A known extension still gives its type, from the name alone.
    const QString json = dir.filePath(QStringLiteral("plan.json"));
    QFile jsonFile(json);
    QVERIFY(jsonFile.open(QIODevice::WriteOnly));
    jsonFile.close();
    QVERIFY2(ui::nameOnlyIconProvider()->type(QFileInfo(json)).contains(QStringLiteral("JSON")),
             qPrintable(ui::nameOnlyIconProvider()->type(QFileInfo(json))));
}

QTEST_MAIN(TestUiFileDialogs)
// The name a plan is saved under opens whole in its box: QInputDialog's layout sizes the dialog
// to its contents, so a minimum width set on the dialog alone left a 200-pixel box that showed
// "tp 8, pp 4, sequence parallel, ZeRO-1" of a longer name.
void TestUiFileDialogs::nameDialogShowsTheWholeName() {
    const QString name = QStringLiteral(
        "Llama 3 70B on 15T tokens, 1024 H100: tp 8, pp 4, sequence parallel, ZeRO-1");
    int boxWidth = 0;
    int textWidth = 0;
    QTimer::singleShot(0, [&] {
        for (QWidget* w : QApplication::topLevelWidgets()) {
            if (auto* dialog = qobject_cast<QInputDialog*>(w); dialog && dialog->isVisible()) {
                auto* box = dialog->findChild<QLineEdit*>();
                boxWidth = box->width();
                textWidth = box->fontMetrics().horizontalAdvance(name);
                dialog->reject();
            }
        }
    });
    tally::ui::defaultPrompts().askText(nullptr, QStringLiteral("Save"), QStringLiteral("Name:"),
                                        name);
    QVERIFY(textWidth > 0);
    QVERIFY2(boxWidth > textWidth,
             qPrintable(QStringLiteral("box %1 px, name %2 px").arg(boxWidth).arg(textWidth)));
}

// A name typed without an extension in a save dialog gets the filter's: "run" under
// "Shell script (*.sh)" is saved as run.sh; a name with its own extension keeps it.
void TestUiFileDialogs::saveDialogAddsTheFiltersExtension() {
    QTemporaryDir dir;
    const auto typed = [&](const QString& name) {
        QTimer::singleShot(0, [name] {
            for (QWidget* w : QApplication::topLevelWidgets()) {
                if (auto* dialog = qobject_cast<QFileDialog*>(w); dialog && dialog->isVisible()) {
                    dialog->selectFile(name);
                    static_cast<QDialog*>(dialog)->accept();
                }
            }
        });
        return ui::chooseSavePath(nullptr, QStringLiteral("Save"), dir.path(),
                                  QStringLiteral("Shell script (*.sh)"));
    };
    QCOMPARE(QFileInfo(typed(QStringLiteral("run"))).fileName(), QStringLiteral("run.sh"));
    QCOMPARE(QFileInfo(typed(QStringLiteral("run.txt"))).fileName(), QStringLiteral("run.txt"));
}

#include "tst_ui_file_dialogs.moc"
