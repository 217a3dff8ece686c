// The real binary, started under Xvfb like a user's desktop: `tally --screenshot FILE` must draw a
// window that is not blank, for each panel.
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

class TestGuiSmoke : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void screenshot_data();
    void screenshot();
    void badPanelIsRejected();
    void unwritableScreenshotFails();

private:
    QString m_xvfbRun;
};

void TestGuiSmoke::initTestCase() {
    m_xvfbRun = QStandardPaths::findExecutable(QStringLiteral("xvfb-run"));
    if (m_xvfbRun.isEmpty() || QStandardPaths::findExecutable(QStringLiteral("Xvfb")).isEmpty()) {
        QSKIP("Xvfb is not installed (apt-get install xvfb): the smoke test needs an X server");
    }
}

void TestGuiSmoke::screenshot_data() {
    QTest::addColumn<QString>("panel");
    QTest::addColumn<QString>("spec");
    QTest::newRow("memory, default plan") << QStringLiteral("memory") << QString();
    QTest::newRow("time, default plan") << QStringLiteral("time") << QString();
    QTest::newRow("layouts, default plan") << QStringLiteral("layouts") << QString();
    QTest::newRow("roofline, seed example") << QStringLiteral("roofline")
                                            << QStringLiteral(TALLY_SOURCE_DIR
                                                              "/resources/examples/"
                                                              "roofline-seed.json");
    QTest::newRow("formats") << QStringLiteral("formats") << QString();
    QTest::newRow("inference, serving example")
        << QStringLiteral("inference")
        << QStringLiteral(TALLY_SOURCE_DIR "/resources/examples/llama-3-70b-serve-4xh100-fp8.json");
    QTest::newRow("compare, scratch workspace") << QStringLiteral("compare") << QString();
    QTest::newRow("probe, scratch workspace") << QStringLiteral("probe") << QString();
}

void TestGuiSmoke::screenshot() {
    QFETCH(QString, panel);
    QFETCH(QString, spec);
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("shot.png"));
    QStringList args{QStringLiteral("-a"),
                     QStringLiteral("-s"),
                     QStringLiteral("-screen 0 1600x1000x24"),
                     QStringLiteral(TALLY_BIN),
                     QStringLiteral("--screenshot"),
                     png,
                     QStringLiteral("--panel"),
                     panel};
    if (!spec.isEmpty()) {
        args << QStringLiteral("--spec") << spec;
    }
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));   // the real X11 path, not offscreen
    env.insert(QStringLiteral("HOME"), dir.path());  // nothing of the user's is read or written
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir.path());
    p.setProcessEnvironment(env);
    p.start(m_xvfbRun, args);
    QVERIFY(p.waitForFinished(120000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QImage image(png);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() >= 1000 && image.height() >= 600);
    // Not blank: a drawn window with forms, text and charts has many distinct colours.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3) {
        for (int x = 0; x < image.width(); x += 3) {
            colours.insert(image.pixel(x, y));
        }
    }
    QVERIFY2(colours.size() > 100, qPrintable(QString::number(colours.size())));
}

void TestGuiSmoke::badPanelIsRejected() {
    QTemporaryDir dir;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), dir.path());
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir.path());
    p.setProcessEnvironment(env);
    p.start(m_xvfbRun, {QStringLiteral("-a"), QStringLiteral(TALLY_BIN),
                        QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("x.png")),
                        QStringLiteral("--panel"), QStringLiteral("nope")});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 2);
    QVERIFY(p.readAllStandardError().contains("memory, time, layouts, roofline, formats"));
}

void TestGuiSmoke::unwritableScreenshotFails() {
    // A folder that does not exist: exit 1 with the path and the reason, and no file left behind.
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("no-such-folder/x.png"));
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), dir.path());
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir.path());
    p.setProcessEnvironment(env);
    p.start(m_xvfbRun,
            {QStringLiteral("-a"), QStringLiteral(TALLY_BIN), QStringLiteral("--screenshot"), png});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 1);
    const QString err = QString::fromLocal8Bit(p.readAllStandardError());
    QVERIFY2(err.contains(png), qPrintable(err));
    QVERIFY(!QFile::exists(png));
}

QTEST_GUILESS_MAIN(TestGuiSmoke)
#include "tst_gui_smoke.moc"
