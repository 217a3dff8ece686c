// WorkspaceSession: the GUI's shared handle on the workspace file.
#include <QSignalSpy>
#include <QtTest>

#include "ui/session/workspace_session.h"

using namespace tally;
using namespace tally::ui;

class TestWorkspaceSession : public QObject {
    Q_OBJECT

private slots:
    void opensAndAnnounces();
    void refusedFileKeepsPreviousAndIsUntouched();
    void closeAnnounces();
};

void TestWorkspaceSession::opensAndAnnounces() {
    QTemporaryDir dir;
    WorkspaceSession session;
    QSignalSpy opened(&session, &WorkspaceSession::opened);
    QSignalSpy profiles(&session, &WorkspaceSession::profilesChanged);
    const QString path = dir.filePath(QStringLiteral("w.sqlite"));
    QVERIFY(session.open(path));
    QVERIFY(session.isOpen());
    QCOMPARE(session.path(), path);
    QCOMPARE(opened.count(), 1);
    QCOMPARE(profiles.count(), 1);
    // The built-in catalog is listed through it (27 entries at the time of writing; at least the
    // four ids the planner fixes).
    QVERIFY(session.workspace()->list_profiles().size() >= 4);
}

void TestWorkspaceSession::refusedFileKeepsPreviousAndIsUntouched() {
    QTemporaryDir dir;
    WorkspaceSession session;
    const QString good = dir.filePath(QStringLiteral("good.sqlite"));
    QVERIFY(session.open(good));
    const QString bad = dir.filePath(QStringLiteral("notes.txt"));
    const QByteArray text = "these are my notes, not a database\n";
    {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    }
    QSignalSpy opened(&session, &WorkspaceSession::opened);
    QSignalSpy profiles(&session, &WorkspaceSession::profilesChanged);
    QString error;
    std::optional<WorkspaceProblem> problem;
    QVERIFY(!session.open(bad, &error, &problem));
    // Nothing changed, so nothing is announced.
    QCOMPARE(opened.count(), 0);
    QCOMPARE(profiles.count(), 0);
    QVERIFY(problem.has_value());
    QCOMPARE(*problem, WorkspaceProblem::not_sqlite);
    QVERIFY2(error.contains(QStringLiteral("notes.txt")), qPrintable(error));
    QCOMPARE(session.path(), good);  // the previous workspace stays open
    QFile f(bad);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), text);  // byte for byte
}

void TestWorkspaceSession::closeAnnounces() {
    QTemporaryDir dir;
    WorkspaceSession session;
    QVERIFY(session.open(dir.filePath(QStringLiteral("w.sqlite"))));
    QSignalSpy closed(&session, &WorkspaceSession::closed);
    QSignalSpy profiles(&session, &WorkspaceSession::profilesChanged);
    QSignalSpy plans(&session, &WorkspaceSession::plansChanged);
    QSignalSpy runs(&session, &WorkspaceSession::probeRunsChanged);
    session.close();
    QCOMPARE(closed.count(), 1);
    // The views of stored rows empty themselves.
    QCOMPARE(profiles.count(), 1);
    QCOMPARE(plans.count(), 1);
    QCOMPARE(runs.count(), 1);
    QVERIFY(!session.isOpen());
    QVERIFY(session.workspace() == nullptr);
    QCOMPARE(session.path(), QString());
    // Closing what is closed announces nothing.
    session.close();
    QCOMPARE(closed.count(), 1);
}

QTEST_GUILESS_MAIN(TestWorkspaceSession)
#include "tst_workspace_session.moc"
