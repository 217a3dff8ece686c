#include "ui/window/app_settings.h"

#include <QDir>
#include <QSettings>
#include <QStandardPaths>

namespace tally::ui {

namespace {
const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kDirectory = QStringLiteral("files/lastDirectory");
const QString kPanel = QStringLiteral("view/currentPanel");
const QString kMemoryVariable = QStringLiteral("view/memoryVariable");
const QString kFormatValue = QStringLiteral("view/formatValue");
const QString kProbeBackend = QStringLiteral("probe/backend");
const QString kProbeLocation = QStringLiteral("probe/location");
const QString kProbeSshHost = QStringLiteral("probe/sshHost");
const QString kProbeRemotePath = QStringLiteral("probe/remotePath");
const QString kProbeLauncher = QStringLiteral("probe/launcher");
const QString kCompareProfiles = QStringLiteral("compare/profiles");
const QString kLanguage = QStringLiteral("window/language");
}  // namespace

AppSettings::AppSettings(QSettings* settings, QObject* parent)
    : QObject(parent), m_settings(settings) {}

QVariant AppSettings::value(const QString& key, const QVariant& fallback) const {
    return m_settings->value(key, fallback);
}

void AppSettings::setValue(const QString& key, const QVariant& value) {
    if (m_settings->value(key) == value) {
        return;
    }
    m_settings->setValue(key, value);
    emit changed(key);
}

QByteArray AppSettings::windowGeometry() const {
    return value(kGeometry).toByteArray();
}
void AppSettings::setWindowGeometry(const QByteArray& geometry) {
    setValue(kGeometry, geometry);
}
QByteArray AppSettings::windowState() const {
    return value(kState).toByteArray();
}
void AppSettings::setWindowState(const QByteArray& state) {
    setValue(kState, state);
}
QString AppSettings::lastDirectory() const {
    // Before any file was opened or saved: the user's documents folder (else home), never "/".
    const QString fallback = [] {
        const QString documents =
            QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        return QDir(documents).exists() ? documents : QDir::homePath();
    }();
    // A folder since removed, or one a failed save named (a path typed into the dialog that does
    // not exist), is no place to start a dialog: the fallback instead.
    const QString stored = value(kDirectory).toString();
    return !stored.isEmpty() && QDir(stored).exists() ? stored : fallback;
}
void AppSettings::setLastDirectory(const QString& directory) {
    setValue(kDirectory, directory);
}
QString AppSettings::currentPanel() const {
    return value(kPanel, QStringLiteral("memory")).toString();
}
void AppSettings::setCurrentPanel(const QString& id) {
    setValue(kPanel, id);
}
QStringList AppSettings::compareProfiles() const {
    return value(kCompareProfiles).toStringList();
}
void AppSettings::setCompareProfiles(const QStringList& ids) {
    setValue(kCompareProfiles, ids);
}
QStringList AppSettings::recentFiles() const {
    return value(QStringLiteral("recentFiles")).toStringList();
}
void AppSettings::setRecentFiles(const QStringList& paths) {
    setValue(QStringLiteral("recentFiles"), paths);
}
QString AppSettings::language() const {
    return value(kLanguage).toString();
}
void AppSettings::setLanguage(const QString& code) {
    setValue(kLanguage, code);
}
QString AppSettings::probeBackend() const {
    return value(kProbeBackend).toString();
}
void AppSettings::setProbeBackend(const QString& backend) {
    setValue(kProbeBackend, backend);
}
QString AppSettings::probeLocation() const {
    return value(kProbeLocation, QStringLiteral("local")).toString();
}
void AppSettings::setProbeLocation(const QString& location) {
    setValue(kProbeLocation, location);
}
QString AppSettings::probeSshHost() const {
    return value(kProbeSshHost).toString();
}
void AppSettings::setProbeSshHost(const QString& host) {
    setValue(kProbeSshHost, host);
}
QString AppSettings::probeRemotePath() const {
    return value(kProbeRemotePath).toString();
}
void AppSettings::setProbeRemotePath(const QString& path) {
    setValue(kProbeRemotePath, path);
}
QString AppSettings::probeLauncher() const {
    return value(kProbeLauncher).toString();
}
void AppSettings::setProbeLauncher(const QString& launcher) {
    setValue(kProbeLauncher, launcher);
}
QString AppSettings::memoryVariable() const {
    return value(kMemoryVariable, QStringLiteral("micro_batch")).toString();
}
void AppSettings::setMemoryVariable(const QString& name) {
    setValue(kMemoryVariable, name);
}
QString AppSettings::formatValue() const {
    return value(kFormatValue, QStringLiteral("0.1")).toString();
}
void AppSettings::setFormatValue(const QString& text) {
    setValue(kFormatValue, text);
}

}  // namespace tally::ui
