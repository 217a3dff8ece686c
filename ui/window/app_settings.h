#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QVariant>

class QSettings;

namespace tally::ui {

// The choices the app remembers between runs, typed, over a QSettings the caller owns (the
// app's own file; a temporary one in tests). Setters write through and emit only on change.
class AppSettings : public QObject {
    Q_OBJECT
public:
    explicit AppSettings(QSettings* settings, QObject* parent = nullptr);

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray& state);
    QString lastDirectory() const;
    void setLastDirectory(const QString& directory);
    QString currentPanel() const;
    void setCurrentPanel(const QString& id);
    QString memoryVariable() const;  // sweep.h's to_string() names
    void setMemoryVariable(const QString& name);
    // The probe backend the user picked last ("cuda", "cpu"), empty when never picked.
    QString probeBackend() const;
    void setProbeBackend(const QString& backend);
    // Where the probe runs: "local" (this machine, the default), "ssh" (probeSshHost()) or
    // "cluster" (as the ranks of probeLauncher()).
    QString probeLocation() const;
    void setProbeLocation(const QString& location);
    // The ssh destination of the last remote run ("gpu-box", "me@gpu-box"); empty: none yet.
    QString probeSshHost() const;
    void setProbeSshHost(const QString& host);
    // The probe's path on that host; empty: tally-probe on its PATH.
    QString probeRemotePath() const;
    void setProbeRemotePath(const QString& path);
    // The cluster launcher of the last cluster run ("srun -N 2 --ntasks-per-node 8"); empty: none.
    QString probeLauncher() const;
    void setProbeLauncher(const QString& launcher);
    // The profiles the Compare view compares, as the user last chose them; empty: never chosen.
    QStringList compareProfiles() const;
    void setCompareProfiles(const QStringList& ids);
    // Plan files opened or saved, the latest first (File > Open recent).
    QStringList recentFiles() const;
    void setRecentFiles(const QStringList& paths);
    QString formatValue() const;
    void setFormatValue(const QString& text);
    // The language picked in View > Language ("en", "zh_CN"); empty: follow the system's.
    QString language() const;
    void setLanguage(const QString& code);

signals:
    void changed(const QString& key);

private:
    QVariant value(const QString& key, const QVariant& fallback = {}) const;
    void setValue(const QString& key, const QVariant& value);

    QSettings* m_settings;
};

}  // namespace tally::ui
