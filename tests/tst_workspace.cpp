// The workspace: round trips of every record type, measured profiles, migrations from every
// earlier schema version, and the default location (which must agree with Qt's).
#include <QCoreApplication>
#include <QDir>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/io/spec_json.h"
#include "planner/store/workspace.h"
#include "tests/workspace_test_util.h"

using namespace tally;
using wstest::spec_error_field;

namespace {

// The schema as version 1 of Tally wrote it, kept here as its own text (not taken from
// workspace.cpp) so the migration is tested against the file an old build really left.
constexpr const char* kOldSchemaV1 = R"sql(
CREATE TABLE profiles (
    id           TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
    name         TEXT NOT NULL UNIQUE CHECK (length(name) > 0),
    kind         TEXT NOT NULL CHECK (kind IN ('custom', 'measured')),
    profile_json TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE TABLE plans (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE CHECK (length(name) > 0),
    spec_json  TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE probe_runs (
    id          INTEGER PRIMARY KEY,
    backend     TEXT NOT NULL,
    host        TEXT NOT NULL,
    device_json TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    status      TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed'))
);
CREATE TABLE probe_results (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES probe_runs(id) ON DELETE CASCADE,
    test        TEXT NOT NULL,
    dtype       TEXT NOT NULL,
    sizes_json  TEXT NOT NULL,
    flops       REAL NOT NULL,
    bytes       REAL NOT NULL,
    flops_per_s REAL,
    bytes_per_s REAL,
    median_s    REAL,
    min_s       REAL,
    max_s       REAL,
    samples     INTEGER NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('passed', 'waived', 'failed')),
    reason      TEXT NOT NULL DEFAULT ''
);
PRAGMA application_id = 1415670905;
PRAGMA user_version = 1;
)sql";

// What version 2 added on top of version 1.
constexpr const char* kOldSchemaV2Additions = R"sql(
ALTER TABLE probe_results ADD COLUMN stdrel REAL;
ALTER TABLE probe_results ADD COLUMN validated INTEGER NOT NULL DEFAULT 0 CHECK (validated IN (0, 1));
CREATE INDEX probe_results_by_run ON probe_results(run_id);
PRAGMA user_version = 2;
)sql";

// What version 3 added on top of version 2.
constexpr const char* kOldSchemaV3Additions = R"sql(
ALTER TABLE profiles ADD COLUMN source_run_id INTEGER REFERENCES probe_runs(id) ON DELETE SET NULL;
CREATE INDEX profiles_by_source_run ON profiles(source_run_id);
PRAGMA user_version = 3;
)sql";

// What version 4 added on top of version 3 (its data migration does nothing on these rows).
constexpr const char* kOldSchemaV4Additions = R"sql(
ALTER TABLE probe_results ADD COLUMN variant TEXT NOT NULL DEFAULT '';
PRAGMA user_version = 4;
)sql";

// Everything SQLite says about the tables and indexes of a file, for comparing two schemas.
QStringList schema_of(const std::string& path) {
    sqlite::Database db = wstest::raw_read(path);
    QStringList out;
    std::vector<std::string> tables;
    sqlite::Statement t(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    while (t.step()) {
        tables.push_back(t.column_text(0));
    }
    for (const std::string& table : tables) {
        sqlite::Statement c(db,
                            "SELECT name, type, \"notnull\", dflt_value, pk FROM "
                            "pragma_table_info(?1) ORDER BY name");
        c.bind(1, table);
        while (c.step()) {
            out << QStringLiteral("%1.%2 %3 notnull=%4 default=%5 pk=%6")
                       .arg(QString::fromStdString(table), QString::fromStdString(c.column_text(0)),
                            QString::fromStdString(c.column_text(1)))
                       .arg(c.column_int(2))
                       .arg(QString::fromStdString(c.column_text(3)))
                       .arg(c.column_int(4));
        }
        sqlite::Statement f(db,
                            "SELECT \"from\", \"table\", \"to\", on_delete FROM "
                            "pragma_foreign_key_list(?1) ORDER BY \"from\"");
        f.bind(1, table);
        while (f.step()) {
            out << QStringLiteral("%1.%2 -> %3.%4 on delete %5")
                       .arg(QString::fromStdString(table), QString::fromStdString(f.column_text(0)),
                            QString::fromStdString(f.column_text(1)),
                            QString::fromStdString(f.column_text(2)),
                            QString::fromStdString(f.column_text(3)));
        }
    }
    sqlite::Statement i(db,
                        "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND "
                        "name NOT LIKE 'sqlite_autoindex%' ORDER BY name");
    while (i.step()) {
        out << QStringLiteral("index %1 on %2")
                   .arg(QString::fromStdString(i.column_text(0)),
                        QString::fromStdString(i.column_text(1)));
    }
    return out;
}

ProbeResultRecord result(const std::string& test, const std::string& variant,
                         const std::string& dtype, double flops_per_s, double bytes_per_s,
                         bool validated, ProbeResultStatus status = ProbeResultStatus::passed) {
    ProbeResultRecord r;
    r.test = test;
    r.variant = variant;
    r.dtype = dtype;
    r.sizes_json = R"({"m":4096,"n":4096,"k":4096})";
    r.flops = 2.0 * 4096.0 * 4096.0 * 4096.0;
    r.bytes = 3.0 * 2.0 * 4096.0 * 4096.0;
    r.flops_per_s = flops_per_s;
    r.bytes_per_s = bytes_per_s;
    r.median_s = 1e-3;
    r.min_s = 0.9e-3;
    r.max_s = 1.4e-3;
    r.stdrel = 0.02;
    r.samples = 31;
    r.status = status;
    r.validated = validated;
    return r;
}

std::string dump(const HardwareProfile& p) {
    return to_json(p).dump();
}

}  // namespace

class TestWorkspace : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void newWorkspaceSettings();
    void profilesRoundTrip();
    void calibratedProfileSavedOrReplaced();
    void changesOfAnotherConnectionAreSeen();
    void profileRulesNameTheField_data();
    void profileRulesNameTheField();
    void builtinProfilesAreReadOnly();
    void storedProfileOutlivesALaterBuiltin();
    void plansRoundTrip();
    void planRules();
    void planAsListedIsNotAnotherWithItsId();
    void replacingAPlanAnotherProgramReplacedRefuses();
    void probeRunsRoundTrip();
    void probeRunIncremental();
    void deadRecorderRunIsFailed();
    void runLeftRunningByAnEarlierBuildIsFailed();
    void removeRunRefusedWhileRecordedOrLinked();
    void probeRecordRules();
    void measuredProfileFromRun();
    void measuredProfileWithoutBase();
    void measuredProfileNeedsUsableResults();
    void measuredProfileStoredWithRun();
    void migrationFromEarlierVersion_data();
    void migrationFromEarlierVersion();
    void migrationSplitsFoldedTestNames();
    void failedMigrationLeavesTheOldFile();
    void defaultPathMatchesQt_data();
    void defaultPathMatchesQt();

private:
    std::string fresh_path(const char* name) { return (m_dir.path() + "/" + name).toStdString(); }
    QTemporaryDir m_dir;
};

void TestWorkspace::initTestCase() {
    QVERIFY(m_dir.isValid());
    // What the GUI sets: an application named "tally", no organisation.
    QCoreApplication::setApplicationName(QStringLiteral("tally"));
    QCoreApplication::setOrganizationName(QString());
}

void TestWorkspace::newWorkspaceSettings() {
    const std::string path = fresh_path("nested/folder/ws.sqlite");
    {
        Workspace ws = Workspace::open(path);
        QCOMPARE(ws.opened_schema_version(), 0);
        QCOMPARE(ws.path().string(), path);
    }
    sqlite::Database db = wstest::raw_read(path);
    QCOMPARE(db.query_int("PRAGMA user_version"), std::int64_t{kWorkspaceSchemaVersion});
    // "Taly" = 0x54 0x61 0x6C 0x79.
    QCOMPARE(db.query_int("PRAGMA application_id"), std::int64_t{0x5461'6C79});
    QCOMPARE(QString::fromStdString(db.query_text("PRAGMA journal_mode")), QStringLiteral("wal"));
    // Opening again finds it at the current version and changes nothing.
    Workspace again = Workspace::open(path);
    QCOMPARE(again.opened_schema_version(), kWorkspaceSchemaVersion);
}

void TestWorkspace::profilesRoundTrip() {
    const std::string path = fresh_path("profiles.sqlite");
    const HardwareProfile* h100 = find_builtin_hardware("h100-sxm");
    QVERIFY(h100 != nullptr);
    HardwareProfile mine = duplicate_profile(*h100, "my-h100", "My H100 (94 GB)");
    mine.memory_bytes = 94e9;
    mine.peak_flops_per_s[static_cast<std::size_t>(ComputeType::bf16)] = 900e12;
    mine.notes = "the rented one";
    QCOMPARE(mine.kind, ProfileKind::custom);
    {
        Workspace ws = Workspace::open(path);
        ws.add_profile(mine);
        HardwareProfile measured = duplicate_profile(*h100, "lab-card", "Lab card");
        measured.kind = ProfileKind::measured;
        ws.add_profile(measured);
    }
    Workspace ws = Workspace::open(path);
    const auto got = ws.find_profile("my-h100");
    QVERIFY(got.has_value());
    QCOMPARE(dump(*got), dump(mine));
    QCOMPARE(got->memory_bytes, 94e9);
    QCOMPARE(got->kind, ProfileKind::custom);
    QCOMPARE(ws.find_profile("lab-card")->kind, ProfileKind::measured);
    QVERIFY(!ws.find_profile("nothing-here").has_value());

    // The list: every built-in first, then the stored ones by name ("Lab card" < "My H100").
    const std::vector<HardwareProfile> all = ws.list_profiles();
    const std::size_t builtins = builtin_hardware().size();
    QCOMPARE(all.size(), builtins + 2);
    for (std::size_t i = 0; i < builtins; ++i) {
        QCOMPARE(all[i].kind, ProfileKind::builtin);
    }
    QCOMPARE(all[builtins].id, std::string("lab-card"));
    QCOMPARE(all[builtins + 1].id, std::string("my-h100"));
    QCOMPARE(ws.stored_profiles().size(), std::size_t{2});

    // Edit, then remove.
    const HardwareProfile read = *ws.find_profile("my-h100");
    mine.name = "My H100, renamed";
    mine.bandwidth_bytes_per_s = 3.0e12;
    ws.update_profile(mine);
    QCOMPARE(dump(*ws.find_profile("my-h100")), dump(mine));
    // An editor that read the profile before that edit does not write over it: refused, naming
    // the profile, and the stored one stays as edited; over what it now holds, it writes.
    HardwareProfile stale = read;
    stale.notes = "written by an editor opened earlier";
    QCOMPARE(spec_error_field([&] { ws.update_profile(stale, read); }), QStringLiteral("profile"));
    QCOMPARE(dump(*ws.find_profile("my-h100")), dump(mine));
    HardwareProfile fresh = *ws.find_profile("my-h100");
    fresh.notes = "written over what is stored";
    ws.update_profile(fresh, *ws.find_profile("my-h100"));
    QCOMPARE(ws.find_profile("my-h100")->notes, std::string("written over what is stored"));
    mine = fresh;
    ws.remove_profile("my-h100");
    QVERIFY(!ws.find_profile("my-h100").has_value());
    QCOMPARE(spec_error_field([&] { ws.remove_profile("my-h100"); }), QStringLiteral("profile"));
    QCOMPARE(spec_error_field([&] { ws.update_profile(mine); }), QStringLiteral("profile"));
}

// SQLite's data_version moves when another connection commits, not for this one's commits.
void TestWorkspace::changesOfAnotherConnectionAreSeen() {
    const std::string path = fresh_path("elsewhere.sqlite");
    Workspace window = Workspace::open(path);
    QVERIFY(!window.changed_elsewhere());  // the first reading
    QVERIFY(!window.changed_elsewhere());
    {
        Workspace cli = Workspace::open(path);
        cli.add_profile(duplicate_profile(*find_builtin_hardware("h100-sxm"), "cli-h100", "CLI"));
    }
    QVERIFY(window.changed_elsewhere());
    QVERIFY(!window.changed_elsewhere());
    window.add_profile(duplicate_profile(*find_builtin_hardware("a100-80gb"), "own", "Own"));
    QVERIFY(!window.changed_elsewhere());
}

void TestWorkspace::calibratedProfileSavedOrReplaced() {
    const std::string path = fresh_path("calibrated.sqlite");
    const HardwareProfile* h100 = find_builtin_hardware("h100-sxm");
    StepCalibration c;
    c.efficiency = 0.8;  // 10 s predicted / 12.5 s measured
    c.measured_step_s = 12.5;
    c.predicted_step_s = 10.0;
    c.measured_on = "2026-12-02";
    c.base_profile = "h100-sxm";
    HardwareProfile cal = duplicate_profile(*h100, "h100-sxm-calibrated", "H100 (calibrated)");
    cal.calibration = c;
    Workspace ws = Workspace::open(path);
    QCOMPARE(ws.save_calibrated_profile(cal), false);  // new
    QCOMPARE(ws.find_profile("h100-sxm-calibrated")->calibration->efficiency, 0.8);
    // Calibrated again: 10 s / 16 s = 0.625 replaces it, in place.
    c.efficiency = 0.625;
    c.measured_step_s = 16.0;
    cal.calibration = c;
    QCOMPARE(ws.save_calibrated_profile(cal), true);
    QCOMPARE(ws.find_profile("h100-sxm-calibrated")->calibration->efficiency, 0.625);
    QCOMPARE(ws.stored_profiles().size(), std::size_t{1});
    // Edited since (another window, `tally profiles edit`), then calibrated again from a copy
    // read before the edit: the new calibration and figures are stored, the notes, price and
    // board power the user wrote stay.
    HardwareProfile edited = *ws.find_profile("h100-sxm-calibrated");
    edited.notes = "our cluster, rack 4";
    edited.price_per_gpu_hour = 2.1;
    edited.tdp_w = 650.0;
    ws.update_profile(edited);
    c.efficiency = 0.5;  // 10 s / 20 s
    c.measured_step_s = 20.0;
    cal.calibration = c;
    QCOMPARE(ws.save_calibrated_profile(cal), true);
    const HardwareProfile kept = *ws.find_profile("h100-sxm-calibrated");
    QCOMPARE(kept.calibration->efficiency, 0.5);
    QCOMPARE(kept.notes, std::string("our cluster, rack 4"));
    QVERIFY(kept.price_per_gpu_hour == std::optional(2.1));
    QCOMPARE(kept.tdp_w, 650.0);
    QCOMPARE(kept.bandwidth_bytes_per_s, h100->bandwidth_bytes_per_s);
    // A stored profile of another part keeps its id: refused, nothing written.
    ws.add_profile(duplicate_profile(*find_builtin_hardware("a100-80gb"), "my-a100", "My A100"));
    HardwareProfile clash = cal;
    clash.id = "my-a100";
    clash.name = "Clash";
    QCOMPARE(spec_error_field([&] { ws.save_calibrated_profile(clash); }),
             QStringLiteral("profile.id"));
    QVERIFY(!ws.find_profile("my-a100")->calibration);
    // A built-in id is never stored, and a profile without a calibration is not one to save.
    clash.id = "h100-sxm";
    QCOMPARE(spec_error_field([&] { ws.save_calibrated_profile(clash); }),
             QStringLiteral("profile.id"));
    HardwareProfile bare = cal;
    bare.calibration.reset();
    QCOMPARE(spec_error_field([&] { ws.save_calibrated_profile(bare); }),
             QStringLiteral("profile.calibration"));
}

void TestWorkspace::profileRulesNameTheField_data() {
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("field");
    QTest::newRow("id taken by a stored profile") << "id=taken"
                                                  << "profile.id";
    QTest::newRow("id of a built-in") << "id=h100-sxm"
                                      << "profile.id";
    // An id that differs only in letter case would read as the other in a spec.
    QTest::newRow("id of a built-in in capitals") << "id=H100-SXM"
                                                  << "profile.id";
    QTest::newRow("id of a stored one in capitals") << "id=Taken"
                                                    << "profile.id";
    QTest::newRow("id with a space") << "id=my card"
                                     << "profile.id";
    QTest::newRow("id with a quote") << "id=x');--"
                                     << "profile.id";
    QTest::newRow("empty id") << "id="
                              << "profile.id";
    QTest::newRow("name taken by a stored profile") << "name=Taken"
                                                    << "profile.name";
    QTest::newRow("name of a built-in") << "name=H100 SXM5 80GB"
                                        << "profile.name";
    QTest::newRow("empty name") << "name="
                                << "profile.name";
    QTest::newRow("name with a newline") << "name=a\nb"
                                         << "profile.name";
    // Latin-1's "café" (0x63 0x61 0x66 0xE9): 0xE9 opens a three-byte UTF-8 sequence that the
    // end of the text cuts short. The workspace stores JSON, which holds only UTF-8.
    QTest::newRow("name not UTF-8") << "latin1-name="
                                    << "profile.name";
    QTest::newRow("notes not UTF-8") << "latin1-notes="
                                     << "profile.notes";
    QTest::newRow("kind builtin") << "kind=builtin"
                                  << "profile.kind";
    QTest::newRow("memory zero") << "memory=0"
                                 << "profile.memory_bytes";
    QTest::newRow("bandwidth negative") << "bandwidth=-1"
                                        << "profile.bandwidth_bytes_per_s";
    QTest::newRow("no peak at all") << "peaks=0"
                                    << "profile.peak_flops_per_s";
}

void TestWorkspace::profileRulesNameTheField() {
    QFETCH(QString, change);
    QFETCH(QString, field);
    Workspace ws = Workspace::open(fresh_path("rules.sqlite"));
    if (!ws.find_profile("taken")) {
        ws.add_profile(duplicate_profile(*find_builtin_hardware("a100-80gb"), "taken", "Taken"));
    }
    HardwareProfile p = duplicate_profile(*find_builtin_hardware("a100-80gb"), "fresh", "Fresh");
    const QString key = change.section(QLatin1Char('='), 0, 0);
    const std::string value = change.section(QLatin1Char('='), 1).toStdString();
    if (key == QLatin1String("id")) {
        p.id = value;
    } else if (key == QLatin1String("name")) {
        p.name = value;
    } else if (key == QLatin1String("latin1-name")) {
        p.name = "caf\xe9";
    } else if (key == QLatin1String("latin1-notes")) {
        p.notes = "caf\xe9";
    } else if (key == QLatin1String("kind")) {
        p.kind = ProfileKind::builtin;
    } else if (key == QLatin1String("memory")) {
        p.memory_bytes = std::stod(value);
    } else if (key == QLatin1String("bandwidth")) {
        p.bandwidth_bytes_per_s = std::stod(value);
    } else if (key == QLatin1String("peaks")) {
        p.peak_flops_per_s.fill(0.0);
    }
    QCOMPARE(spec_error_field([&] { ws.add_profile(p); }), field);
    // Nothing was stored: only "taken" is there.
    QCOMPARE(ws.stored_profiles().size(), std::size_t{1});
}

void TestWorkspace::builtinProfilesAreReadOnly() {
    Workspace ws = Workspace::open(fresh_path("builtin.sqlite"));
    HardwareProfile h100 = *find_builtin_hardware("h100-sxm");
    QCOMPARE(spec_error_field([&] { ws.remove_profile("h100-sxm"); }), QStringLiteral("profile"));
    h100.kind = ProfileKind::custom;
    h100.memory_bytes = 1e9;
    QCOMPARE(spec_error_field([&] { ws.update_profile(h100); }), QStringLiteral("profile"));
    // The catalog's figure is what find_profile still gives.
    QCOMPARE(ws.find_profile("h100-sxm")->memory_bytes, 80e9);
    QCOMPARE(ws.find_profile("h100-sxm")->kind, ProfileKind::builtin);
}

void TestWorkspace::storedProfileOutlivesALaterBuiltin() {
    // A user saved "h200" before the catalog had it (written as an older catalog allowed).
    const std::string path = fresh_path("shadow.sqlite");
    { Workspace::open(path); }
    HardwareProfile mine = duplicate_profile(*find_builtin_hardware("h200"), "h200", "My H200");
    mine.memory_bytes = 100e9;
    {
        sqlite::Database db(path, SQLITE_OPEN_READWRITE);
        sqlite::Statement s(db,
                            "INSERT INTO profiles (id, name, kind, profile_json, created_at, "
                            "updated_at) VALUES ('h200', 'My H200', 'custom', ?1, 'x', 'x')");
        s.bind(1, to_json(mine).dump());
        s.run();
    }
    Workspace ws = Workspace::open(path);
    // Listed once, as the stored profile (it replaces the built-in, as the id finds the user's
    // figures), after every other built-in and with the catalog's other entries all there.
    const auto all = ws.list_profiles();
    QCOMPARE(std::count_if(all.begin(), all.end(),
                           [](const HardwareProfile& p) { return p.id == "h200"; }),
             1);
    QCOMPARE(all.size(), builtin_hardware().size());  // one built-in out, one stored in
    QCOMPARE(all.back().id, std::string("h200"));
    QCOMPARE(all.back().memory_bytes, 100e9);
    QCOMPARE(all.back().kind, ProfileKind::custom);
    // The user's figures can still be edited and removed.
    QCOMPARE(ws.find_profile("h200")->memory_bytes, 100e9);
    mine.memory_bytes = 110e9;
    ws.update_profile(mine);
    QCOMPARE(ws.find_profile("h200")->memory_bytes, 110e9);
    ws.remove_profile("h200");
    QCOMPARE(ws.find_profile("h200")->memory_bytes, 141e9);  // the catalog's H200
    QCOMPARE(ws.find_profile("h200")->kind, ProfileKind::builtin);
}

void TestWorkspace::plansRoundTrip() {
    const std::string path = fresh_path("plans.sqlite");
    PlanSpec spec = default_plan_spec();
    spec.cluster.gpus = 2048;
    spec.description = "Notes kept with the plan.\n第二行";
    std::int64_t id = 0;
    {
        Workspace ws = Workspace::open(path);
        id = ws.save_plan("70B on 2048 H100", spec);
        QVERIFY(id > 0);
        ws.save_plan("a first plan", default_plan_spec());
    }
    Workspace ws = Workspace::open(path);
    const auto by_id = ws.find_plan(id);
    QVERIFY(by_id.has_value());
    QCOMPARE(by_id->name, std::string("70B on 2048 H100"));
    QCOMPARE(to_json(plan_spec_from_text(by_id->spec_json)).dump(), to_json(spec).dump());
    QCOMPARE(plan_spec_from_text(by_id->spec_json).cluster.gpus, std::int64_t{2048});
    QCOMPARE(plan_spec_from_text(by_id->spec_json).description, spec.description);
    const QRegularExpression iso(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$"));
    QVERIFY(iso.match(QString::fromStdString(by_id->created_at)).hasMatch());
    QVERIFY(iso.match(QString::fromStdString(by_id->updated_at)).hasMatch());
    QCOMPARE(ws.find_plan(std::string("70B on 2048 H100"))->id, id);
    QCOMPARE(ws.find_plan(std::to_string(id))->id, id);
    QVERIFY(!ws.find_plan(std::string("no such plan")).has_value());
    QVERIFY(!ws.find_plan(std::int64_t{9999}).has_value());

    // By name: "70B ..." sorts before "a first plan" (digits before letters).
    const auto plans = ws.list_plans();
    QCOMPARE(plans.size(), std::size_t{2});
    QCOMPARE(plans[0].name, std::string("70B on 2048 H100"));
    QCOMPARE(plans[1].name, std::string("a first plan"));

    spec.cluster.gpus = 512;
    ws.update_plan(id, spec);
    QCOMPARE(plan_spec_from_text(ws.find_plan(id)->spec_json).cluster.gpus, std::int64_t{512});
    ws.rename_plan(id, "70B on 512 H100");
    QCOMPARE(ws.find_plan(id)->name, std::string("70B on 512 H100"));
    ws.remove_plan(id);
    QVERIFY(!ws.find_plan(id).has_value());
    QCOMPARE(ws.list_plans().size(), std::size_t{1});
}

void TestWorkspace::planRules() {
    Workspace ws = Workspace::open(fresh_path("plan-rules.sqlite"));
    const std::int64_t id = ws.save_plan("taken", default_plan_spec());
    const std::int64_t other = ws.save_plan("other", default_plan_spec());
    QCOMPARE(spec_error_field([&] { ws.save_plan("taken", default_plan_spec()); }),
             QStringLiteral("plan.name"));
    QCOMPARE(spec_error_field([&] { ws.save_plan("", default_plan_spec()); }),
             QStringLiteral("plan.name"));
    QCOMPARE(spec_error_field([&] { ws.save_plan("   ", default_plan_spec()); }),
             QStringLiteral("plan.name"));
    QCOMPARE(spec_error_field([&] { ws.save_plan("12345", default_plan_spec()); }),
             QStringLiteral("plan.name"));
    // Bytes that are not UTF-8 (0xFF never occurs in it): refused by field, so that the list,
    // which is written as JSON, still reads.
    QCOMPARE(spec_error_field([&] { ws.save_plan("\xff\xfe", default_plan_spec()); }),
             QStringLiteral("plan.name"));
    QCOMPARE(spec_error_field([&] { ws.rename_plan(other, "caf\xe9"); }),
             QStringLiteral("plan.name"));
    QCOMPARE(spec_error_field([&] { ws.rename_plan(other, "taken"); }),
             QStringLiteral("plan.name"));
    QCOMPARE(spec_error_field([&] { ws.rename_plan(9999, "free"); }), QStringLiteral("plan"));
    QCOMPARE(spec_error_field([&] { ws.update_plan(9999, default_plan_spec()); }),
             QStringLiteral("plan"));
    QCOMPARE(spec_error_field([&] { ws.remove_plan(9999); }), QStringLiteral("plan"));
    // Renaming a plan to its own name is no conflict.
    ws.rename_plan(id, "taken");
    QCOMPARE(ws.list_plans().size(), std::size_t{2});
}

// A list read before the newest plan was deleted and another saved: SQLite gives the new plan
// the largest id + 1, the deleted plan's. An action on the row as listed (id, name, creation
// time) refuses, naming the plan, and leaves the plan now under that id as it was.
void TestWorkspace::planAsListedIsNotAnotherWithItsId() {
    Workspace ws = Workspace::open(fresh_path("plan-ids.sqlite"));
    ws.save_plan("kept", default_plan_spec());
    const std::int64_t id = ws.save_plan("listed", default_plan_spec());
    const StoredPlan listed = *ws.find_plan(id);
    ws.remove_plan(id);
    PlanSpec other = default_plan_spec();
    other.cluster.gpus = 8;
    QCOMPARE(ws.save_plan("precious", other), id);  // the id is given again
    QCOMPARE(spec_error_field([&] { ws.update_plan(listed, default_plan_spec()); }),
             QStringLiteral("plan"));
    QCOMPARE(spec_error_field([&] { ws.rename_plan(listed, "renamed"); }), QStringLiteral("plan"));
    QCOMPARE(spec_error_field([&] { ws.remove_plan(listed); }), QStringLiteral("plan"));
    const auto precious = ws.find_plan(id);
    QVERIFY(precious.has_value());
    QCOMPARE(precious->name, std::string("precious"));
    QCOMPARE(plan_spec_from_text(precious->spec_json).cluster.gpus, std::int64_t{8});
    // The plan as listed now acts.
    ws.rename_plan(*precious, "precious 2");
    ws.update_plan(*ws.find_plan(id), default_plan_spec());
    ws.remove_plan(*ws.find_plan(id));
    QCOMPARE(ws.list_plans().size(), std::size_t{1});
}

// A plan replaced by another program (`tally plans save --replace`: same id, name and creation
// time) after a window listed it: the window's "Replace with current plan" refuses, naming the
// plan, and the other program's plan stays; replaced again from a fresh list, it is written.
void TestWorkspace::replacingAPlanAnotherProgramReplacedRefuses() {
    Workspace ws = Workspace::open(fresh_path("plan-replaced.sqlite"));
    const std::int64_t id = ws.save_plan("shared", default_plan_spec());
    const StoredPlan listed = *ws.find_plan(id);
    PlanSpec theirs = default_plan_spec();
    theirs.cluster.gpus = 8;
    ws.update_plan(id, theirs);
    QCOMPARE(ws.find_plan(id)->created_at, listed.created_at);
    PlanSpec mine = default_plan_spec();
    mine.cluster.gpus = 4096;
    QString message;
    QCOMPARE(spec_error_field([&] { ws.update_plan(listed, mine); }, &message),
             QStringLiteral("plan"));
    QVERIFY2(message.contains(QStringLiteral("replaced it since the list was read")),
             qPrintable(message));
    QCOMPARE(plan_spec_from_text(ws.find_plan(id)->spec_json).cluster.gpus, std::int64_t{8});
    ws.update_plan(*ws.find_plan(id), mine);
    QCOMPARE(plan_spec_from_text(ws.find_plan(id)->spec_json).cluster.gpus, std::int64_t{4096});
}

void TestWorkspace::probeRunsRoundTrip() {
    const std::string path = fresh_path("runs.sqlite");
    ProbeRunRecord run;
    run.backend = "cuda";
    run.host = "gpu01";
    run.device_json = R"({"event":"device","name":"NVIDIA H100 80GB HBM3","memory_bytes":8.5e10})";
    run.started_at = "2025-03-01T10:00:00Z";
    run.finished_at = "2025-03-01T10:05:00Z";
    run.status = ProbeRunStatus::ok;
    run.results.push_back(result("matmul", "cublaslt", "bf16", 7.1e14, 1.1e11, true));
    run.results.push_back(result("memory_bandwidth", "copy", "fp32", 0.0, 2.9e12, true));
    ProbeResultRecord waived;
    waived.test = "matmul";
    waived.dtype = "fp4";
    waived.status = ProbeResultStatus::waived;
    waived.reason = "fp4 is not supported by this device";
    run.results.push_back(waived);  // no timings: every optional stays empty
    std::int64_t id = 0;
    {
        Workspace ws = Workspace::open(path);
        id = ws.add_probe_run(run);
    }
    Workspace ws = Workspace::open(path);
    const auto got = ws.find_probe_run(id);
    QVERIFY(got.has_value());
    QCOMPARE(got->results.size(), std::size_t{3});
    ProbeRunRecord expected = run;
    expected.id = id;
    for (std::size_t i = 0; i < expected.results.size(); ++i) {
        QVERIFY(got->results[i].id > 0);
        if (i > 0) {
            QVERIFY(got->results[i].id > got->results[i - 1].id);
        }
        expected.results[i].id = got->results[i].id;
    }
    QVERIFY(*got == expected);
    QVERIFY(!got->results[2].median_s.has_value());
    QVERIFY(!got->results[2].flops_per_s.has_value());

    const auto runs = ws.list_probe_runs();
    QCOMPARE(runs.size(), std::size_t{1});
    QVERIFY(runs[0] == expected);

    ws.remove_probe_run(id);
    QVERIFY(!ws.find_probe_run(id).has_value());
    QCOMPARE(wstest::count_rows(path, "probe_results"), std::int64_t{0});
    QCOMPARE(spec_error_field([&] { ws.remove_probe_run(id); }), QStringLiteral("probe run"));
}

void TestWorkspace::probeRunIncremental() {
    Workspace ws = Workspace::open(fresh_path("runs-incremental.sqlite"));
    ProbeRunRecord first;
    first.backend = "cpu";
    first.host = "laptop";
    first.started_at = "2025-03-01T10:00:00Z";
    first.status = ProbeRunStatus::ok;
    first.finished_at = "2025-03-01T10:00:30Z";
    const std::int64_t older = ws.add_probe_run(first);

    // As the app stores a run while the probe is still sending events.
    ProbeRunRecord second = first;
    second.started_at = "2025-03-02T09:00:00Z";
    second.finished_at.clear();
    second.status = ProbeRunStatus::running;
    const std::int64_t newer = ws.add_probe_run(second);
    QCOMPARE(ws.find_probe_run(newer)->status, ProbeRunStatus::running);
    QCOMPARE(ws.find_probe_run(newer)->finished_at, std::string());
    const std::int64_t r1 =
        ws.add_probe_result(newer, result("matmul", "blas", "fp32", 1e12, 0, true));
    const std::int64_t r2 =
        ws.add_probe_result(newer, result("stream", "read", "fp32", 0, 5e10, true));
    QVERIFY(r2 > r1);
    ws.finish_probe_run(newer, ProbeRunStatus::failed, "2025-03-02T09:01:00Z");

    const auto runs = ws.list_probe_runs();
    QCOMPARE(runs.size(), std::size_t{2});
    QCOMPARE(runs[0].id, newer);  // newest first
    QCOMPARE(runs[1].id, older);
    QCOMPARE(runs[0].status, ProbeRunStatus::failed);
    QCOMPARE(runs[0].finished_at, std::string("2025-03-02T09:01:00Z"));
    QCOMPARE(runs[0].results.size(), std::size_t{2});
    QCOMPARE(runs[0].results[1].test, std::string("stream"));
    QCOMPARE(runs[0].results[1].variant, std::string("read"));
    QCOMPARE(runs[1].results.size(), std::size_t{0});
    QCOMPARE(spec_error_field(
                 [&] { ws.add_probe_result(9999, result("stream", "copy", "fp32", 0, 1, true)); }),
             QStringLiteral("probe run"));
    QCOMPARE(spec_error_field([&] { ws.finish_probe_run(9999, ProbeRunStatus::ok, "x"); }),
             QStringLiteral("probe run"));
}

void TestWorkspace::probeRecordRules() {
    Workspace ws = Workspace::open(fresh_path("run-rules.sqlite"));
    ProbeRunRecord run;
    run.backend = "cpu";
    run.started_at = "2025-03-01T10:00:00Z";
    ProbeRunRecord bad = run;
    bad.device_json = "[1, 2]";
    QCOMPARE(spec_error_field([&] { ws.add_probe_run(bad); }), QStringLiteral("run.device"));
    bad = run;
    bad.started_at.clear();
    QCOMPARE(spec_error_field([&] { ws.add_probe_run(bad); }), QStringLiteral("run.started_at"));
    bad = run;
    bad.results.push_back(result("matmul", "cublaslt", "bf16", std::nan(""), 0, true));
    QCOMPARE(spec_error_field([&] { ws.add_probe_run(bad); }),
             QStringLiteral("result.flops_per_s"));
    bad = run;
    bad.results.push_back(result("matmul", "cublaslt", "bf16", 1e12, 0, true));
    bad.results.back().sizes_json = "m=4096";
    QCOMPARE(spec_error_field([&] { ws.add_probe_run(bad); }), QStringLiteral("result.sizes"));
    // None of the refused runs left a row.
    QCOMPARE(ws.list_probe_runs().size(), std::size_t{0});
}

void TestWorkspace::measuredProfileFromRun() {
    ProbeRunRecord run;
    run.id = 7;
    run.backend = "cuda";
    run.host = "gpu01";
    run.started_at = "2025-03-01T10:00:00Z";
    run.finished_at = "2025-03-01T10:05:00Z";
    run.status = ProbeRunStatus::ok;
    run.results = {
        result("matmul", "cublaslt", "bf16", 6.5e14, 0, true),
        result("matmul", "cublaslt", "bf16", 7.0e14, 0, true),  // best validated bf16
        result("matmul", "cublaslt", "bf16", 9.0e14, 0,
               false),  // faster, but not validated: ignored
        result("matmul", "cublaslt", "bf16", 9.5e14, 0, true,
               ProbeResultStatus::failed),  // failed: ignored
        result("matmul", "cublaslt", "fp32", 5.0e13, 0, true),
        result("memory_bandwidth", "copy", "fp32", 0, 2.9e12, true),
        result("memory_bandwidth", "read", "fp32", 0, 3.1e12,
               true),  // best validated memory result
        result("memory_bandwidth", "read", "fp32", 0, 3.3e12, false),
    };
    const HardwareProfile& h100 = *find_builtin_hardware("h100-sxm");
    const HardwareProfile p = measured_profile(run, &h100, "h100-measured", "H100, measured");
    QCOMPARE(p.kind, ProfileKind::measured);
    QCOMPARE(p.id, std::string("h100-measured"));
    QCOMPARE(p.name, std::string("H100, measured"));
    QCOMPARE(p.peak(ComputeType::bf16), 7.0e14);
    QCOMPARE(p.peak(ComputeType::fp32), 5.0e13);
    QCOMPARE(p.bandwidth_bytes_per_s, 3.1e12);
    // Not measured: the base's figures (H100 SXM datasheet: dense FP8 1979 TFLOP/s, 80 GB).
    QCOMPARE(p.peak(ComputeType::fp8), 1979e12);
    QCOMPARE(p.memory_bytes, 80e9);
    // Sources say which run and when.
    QVERIFY(!p.sources.empty());
    QVERIFY(p.sources.front().find("run 7") != std::string::npos);
    QVERIFY(p.sources.front().find("2025-03-01T10:00:00Z") != std::string::npos);
    // The measured bf16 figure replaced the catalog's published ones: 100% of the new peak.
    QCOMPARE(p.best_measured_gemm_fraction(ComputeType::bf16), std::optional<double>(1.0));
    // fp8 was not measured: the catalog's published fp8 figure stays.
    QCOMPARE(p.best_measured_gemm_fraction(ComputeType::fp8),
             h100.best_measured_gemm_fraction(ComputeType::fp8));
    // Ridge = 7.0e14 / 3.1e12 = 225.8 FLOP/byte.
    QVERIFY(std::abs(p.ridge_flops_per_byte(ComputeType::bf16) - 225.806) < 0.001);
}

void TestWorkspace::measuredProfileWithoutBase() {
    ProbeRunRecord run;
    run.id = 3;
    run.backend = "cpu";
    run.started_at = "2025-03-01T10:00:00Z";
    run.device_json = R"({"name":"Test CPU","memory_bytes":6.4e10})";
    run.results = {result("matmul", "blas", "fp32", 1.2e12, 0, true),
                   result("stream", "copy", "fp32", 0, 4e10, true)};
    const HardwareProfile p = measured_profile(run, nullptr, "cpu", "My CPU");
    QCOMPARE(p.memory_bytes, 6.4e10);
    QCOMPARE(p.peak(ComputeType::fp32), 1.2e12);
    QCOMPARE(p.peak(ComputeType::bf16), 0.0);  // not measured and no base
    QCOMPARE(p.bandwidth_bytes_per_s, 4e10);

    run.device_json = R"({"name":"Test CPU"})";  // no memory size: a base is needed
    QCOMPARE(spec_error_field([&] { measured_profile(run, nullptr, "cpu", "My CPU"); }),
             QStringLiteral("base"));
    run.device_json = R"({"memory_bytes":6.4e10})";
    run.results.pop_back();  // no bandwidth either
    QCOMPARE(spec_error_field([&] { measured_profile(run, nullptr, "cpu", "My CPU"); }),
             QStringLiteral("base"));
}

void TestWorkspace::measuredProfileNeedsUsableResults() {
    ProbeRunRecord run;
    run.id = 4;
    run.backend = "cpu";
    run.started_at = "2025-03-01T10:00:00Z";
    run.results = {result("matmul", "blas", "fp32", 1e12, 0, false),
                   result("stream", "copy", "fp32", 0, 1e10, true, ProbeResultStatus::waived)};
    QCOMPARE(spec_error_field(
                 [&] { measured_profile(run, find_builtin_hardware("h100-sxm"), "x", "X"); }),
             QStringLiteral("probe run"));
}

void TestWorkspace::measuredProfileStoredWithRun() {
    const std::string path = fresh_path("measured.sqlite");
    Workspace ws = Workspace::open(path);
    ProbeRunRecord run;
    run.backend = "cuda";
    run.host = "gpu01";
    run.started_at = "2025-03-01T10:00:00Z";
    run.status = ProbeRunStatus::ok;
    run.results = {result("matmul", "cublaslt", "bf16", 7e14, 0, true)};
    const std::int64_t run_id = ws.add_probe_run(run);
    const HardwareProfile p = ws.add_measured_profile(run_id, "h100-sxm", "lab-h100", "Lab H100");
    QCOMPARE(p.peak(ComputeType::bf16), 7e14);
    QCOMPARE(ws.find_profile("lab-h100")->kind, ProfileKind::measured);
    QCOMPARE(dump(*ws.find_profile("lab-h100")), dump(p));
    QCOMPARE(ws.profile_source_run("lab-h100"), std::optional<std::int64_t>(run_id));
    QCOMPARE(spec_error_field([&] { ws.add_measured_profile(9999, "", "x", "X"); }),
             QStringLiteral("probe run"));
    QCOMPARE(spec_error_field([&] { ws.add_measured_profile(run_id, "nope", "x", "X"); }),
             QStringLiteral("profile"));
    // The run stays while the profile names it: removing it is refused, naming the profile.
    try {
        ws.remove_probe_run(run_id);
        QFAIL("a run a measured profile was made from was removed");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("probe run"));
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("lab-h100 (\"Lab H100\")")),
                 e.what());
    }
    QVERIFY(ws.find_probe_run(run_id).has_value());
    QCOMPARE(ws.profile_source_run("lab-h100"), std::optional<std::int64_t>(run_id));
    // Without the profile the run goes.
    ws.remove_profile("lab-h100");
    ws.remove_probe_run(run_id);
    QVERIFY(!ws.find_probe_run(run_id).has_value());
}

// A recorder that goes away without finishing its run (its process killed: the kernel closes
// its descriptors, as destroying the Workspace does here) leaves the run running; the next look
// stores it as failed, keeping the results that arrived.
void TestWorkspace::deadRecorderRunIsFailed() {
    const std::string path = fresh_path("dead-recorder.sqlite");
    ProbeRunRecord run;
    run.backend = "cpu";
    run.host = "laptop";
    run.started_at = "2025-03-02T09:00:00Z";
    run.status = ProbeRunStatus::running;
    std::int64_t id = 0;
    Workspace watcher = Workspace::open(path);
    {
        Workspace recorder = Workspace::open(path);
        id = recorder.add_probe_run(run);
        recorder.add_probe_result(id, result("matmul", "blas", "fp32", 1e12, 0, true));
        // While the recorder lives, another connection sees the run running, and may neither
        // make a profile of it nor remove it.
        QCOMPARE(watcher.find_probe_run(id)->status, ProbeRunStatus::running);
        QVERIFY(watcher.probe_run_recorder_alive(id));
        QCOMPARE(spec_error_field([&] { watcher.add_measured_profile(id, "", "x", "X"); }),
                 QStringLiteral("probe run"));
        QCOMPARE(spec_error_field([&] { watcher.remove_probe_run(id); }),
                 QStringLiteral("probe run"));
        QCOMPARE(watcher.list_probe_runs()[0].status, ProbeRunStatus::running);
    }
    // The recorder is gone: failed, stored so (read back through a connection of the test's
    // own), with its one result and no finish time (nobody saw it end).
    QVERIFY(!watcher.probe_run_recorder_alive(id));
    const std::vector<ProbeRunRecord> runs = watcher.list_probe_runs();
    QCOMPARE(runs.size(), std::size_t{1});
    QCOMPARE(runs[0].status, ProbeRunStatus::failed);
    QCOMPARE(runs[0].finished_at, std::string());
    QCOMPARE(runs[0].results.size(), std::size_t{1});
    {
        sqlite::Database db = wstest::raw_read(path);
        QCOMPARE(db.query_text("SELECT status FROM probe_runs"), std::string("failed"));
    }
    QVERIFY(!QFile::exists(
        QString::fromStdString(path + "-probe-run-" + std::to_string(id) + ".lock")));

    // A run that ends normally stays as its recorder finished it, and leaves no lock file.
    Workspace recorder = Workspace::open(path);
    const std::int64_t finished = recorder.add_probe_run(run);
    QVERIFY(QFile::exists(
        QString::fromStdString(path + "-probe-run-" + std::to_string(finished) + ".lock")));
    recorder.finish_probe_run(finished, ProbeRunStatus::ok, "2025-03-02T09:01:00Z");
    QVERIFY(!QFile::exists(
        QString::fromStdString(path + "-probe-run-" + std::to_string(finished) + ".lock")));
    QCOMPARE(Workspace::open(path).find_probe_run(finished)->status, ProbeRunStatus::ok);
}

// A workspace of the previous schema (version 4) holding a run an earlier build left running
// (it took no lock): opening migrates it and stores that run as failed.
void TestWorkspace::runLeftRunningByAnEarlierBuildIsFailed() {
    const std::string path = fresh_path("left-running-v4.sqlite");
    {
        sqlite::Database db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        db.exec(kOldSchemaV1);
        db.exec(kOldSchemaV2Additions);
        db.exec(kOldSchemaV3Additions);
        db.exec(kOldSchemaV4Additions);
        db.exec(
            "INSERT INTO probe_runs VALUES (1, 'cpu', 'oldhost', '{}', '2024-01-04T00:00:00Z', "
            "NULL, 'running')");
        QCOMPARE(db.query_int("PRAGMA user_version"), std::int64_t{4});
    }
    Workspace ws = Workspace::open(path);
    QCOMPARE(ws.opened_schema_version(), 4);
    {
        sqlite::Database db = wstest::raw_read(path);
        QCOMPARE(db.query_int("PRAGMA user_version"), std::int64_t{kWorkspaceSchemaVersion});
        QCOMPARE(db.query_text("SELECT status FROM probe_runs WHERE id = 1"),
                 std::string("failed"));
    }
    QCOMPARE(ws.find_probe_run(1)->status, ProbeRunStatus::failed);
}

void TestWorkspace::removeRunRefusedWhileRecordedOrLinked() {
    const std::string path = fresh_path("remove-run.sqlite");
    Workspace ws = Workspace::open(path);
    ProbeRunRecord run;
    run.backend = "cpu";
    run.host = "laptop";
    run.started_at = "2025-03-02T09:00:00Z";
    run.status = ProbeRunStatus::running;
    const std::int64_t id = ws.add_probe_run(run);
    // Recorded through this very connection: refused, saying so; nothing removed.
    try {
        ws.remove_probe_run(id);
        QFAIL("a run being recorded was removed");
    } catch (const SpecError& e) {
        QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("probe run"));
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("being recorded now")),
                 e.what());
    }
    QCOMPARE(wstest::count_rows(path, "probe_runs"), std::int64_t{1});
    ws.finish_probe_run(id, ProbeRunStatus::failed, "2025-03-02T09:01:00Z");
    ws.remove_probe_run(id);
    QCOMPARE(wstest::count_rows(path, "probe_runs"), std::int64_t{0});
}

void TestWorkspace::migrationFromEarlierVersion_data() {
    QTest::addColumn<int>("version");
    QTest::newRow("from version 1") << 1;
    QTest::newRow("from version 2") << 2;
    QTest::newRow("from version 3") << 3;
    QTest::newRow("from version 4") << 4;
}

void TestWorkspace::migrationFromEarlierVersion() {
    QFETCH(int, version);
    const std::string name = "old-v" + std::to_string(version) + ".sqlite";
    const std::string path = fresh_path(name.c_str());
    const std::string profile_json =
        to_json(duplicate_profile(*find_builtin_hardware("a100-80gb"), "old-card", "Old card"))
            .dump();
    const std::string spec_json = to_json(default_plan_spec()).dump();
    {
        // An old build's file, in the rollback journal mode it may have used.
        sqlite::Database db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        db.exec(kOldSchemaV1);
        if (version >= 2) {
            db.exec(kOldSchemaV2Additions);
        }
        if (version >= 3) {
            db.exec(kOldSchemaV3Additions);
        }
        if (version >= 4) {
            db.exec(kOldSchemaV4Additions);
        }
        sqlite::Statement p(db,
                            "INSERT INTO profiles (id, name, kind, profile_json, created_at, "
                            "updated_at) VALUES ('old-card', 'Old card', 'custom', ?1, "
                            "'2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z')");
        p.bind(1, profile_json);
        p.run();
        sqlite::Statement plan(db,
                               "INSERT INTO plans (name, spec_json, created_at, updated_at) "
                               "VALUES ('old plan', ?1, '2024-01-02T00:00:00Z', "
                               "'2024-01-03T00:00:00Z')");
        plan.bind(1, spec_json);
        plan.run();
        db.exec(
            "INSERT INTO probe_runs VALUES (1, 'cpu', 'oldhost', '{}', '2024-01-04T00:00:00Z', "
            "'2024-01-04T00:01:00Z', 'ok')");
        if (version == 1) {
            db.exec(
                "INSERT INTO probe_results (run_id, test, dtype, sizes_json, flops, bytes, "
                "flops_per_s, bytes_per_s, median_s, min_s, max_s, samples, status, reason) "
                "VALUES (1, 'matmul', 'fp32', '{\"m\":512}', 2.0, 3.0, 4.0e11, 5.0, 0.25, 0.2, "
                "0.5, 9, 'passed', '')");
        } else {
            db.exec(
                "INSERT INTO probe_results (run_id, test, dtype, sizes_json, flops, bytes, "
                "flops_per_s, bytes_per_s, median_s, min_s, max_s, samples, status, reason, "
                "stdrel, validated) VALUES (1, 'matmul', 'fp32', '{\"m\":512}', 2.0, 3.0, "
                "4.0e11, 5.0, 0.25, 0.2, 0.5, 9, 'passed', '', 0.03, 1)");
        }
        QCOMPARE(db.query_int("PRAGMA user_version"), std::int64_t{version});
    }

    {
        Workspace ws = Workspace::open(path);
        QCOMPARE(ws.opened_schema_version(), version);

        const auto profile = ws.find_profile("old-card");
        QVERIFY(profile.has_value());
        QCOMPARE(profile->name, std::string("Old card"));
        QCOMPARE(profile->memory_bytes, 80e9);
        QCOMPARE(ws.profile_source_run("old-card"), std::optional<std::int64_t>());

        const auto plan = ws.find_plan(std::string("old plan"));
        QVERIFY(plan.has_value());
        QCOMPARE(plan->created_at, std::string("2024-01-02T00:00:00Z"));
        QCOMPARE(plan->updated_at, std::string("2024-01-03T00:00:00Z"));
        QCOMPARE(to_json(plan_spec_from_text(plan->spec_json)).dump(),
                 to_json(default_plan_spec()).dump());

        const auto run = ws.find_probe_run(1);
        QVERIFY(run.has_value());
        QCOMPARE(run->host, std::string("oldhost"));
        QCOMPARE(run->results.size(), std::size_t{1});
        const ProbeResultRecord& r = run->results[0];
        QCOMPARE(r.flops_per_s, std::optional<double>(4.0e11));
        QCOMPARE(r.median_s, std::optional<double>(0.25));
        QCOMPARE(r.samples, std::int64_t{9});
        QCOMPARE(r.test, std::string("matmul"));
        QCOMPARE(r.variant, std::string());  // not recorded before version 4
        // Version 5's columns: no bus bandwidth, no digest of an imported file.
        QCOMPARE(r.bus_bytes_per_s, std::optional<double>());
        QCOMPARE(run->content_digest, std::string());
        if (version == 1) {
            // Version 1 did not validate: the rows come across as not validated, no spread.
            QCOMPARE(r.validated, false);
            QCOMPARE(r.stdrel, std::optional<double>());
            QCOMPARE(spec_error_field([&] { ws.add_measured_profile(1, "a100-80gb", "m", "M"); }),
                     QStringLiteral("probe run"));
        } else {
            QCOMPARE(r.validated, true);
            QCOMPARE(r.stdrel, std::optional<double>(0.03));
            // Version 3's link works on the migrated run.
            ws.add_measured_profile(1, "a100-80gb", "m", "M");
            QCOMPARE(ws.profile_source_run("m"), std::optional<std::int64_t>(1));
        }
        // And the migrated file takes new rows.
        ws.save_plan("new plan", default_plan_spec());
    }
    {
        sqlite::Database db = wstest::raw_read(path);
        QCOMPARE(db.query_int("PRAGMA user_version"), std::int64_t{kWorkspaceSchemaVersion});
        QCOMPARE(QString::fromStdString(db.query_text("PRAGMA journal_mode")),
                 QStringLiteral("wal"));
    }
    QCOMPARE(QString::fromStdString(wstest::integrity(path)), QStringLiteral("ok"));
    // The migrated schema is the one a new workspace gets.
    const std::string fresh = fresh_path("fresh-for-schema.sqlite");
    { Workspace::open(fresh); }
    QCOMPARE(schema_of(path), schema_of(fresh));
    QVERIFY(schema_of(path).join(QLatin1Char('\n')).contains(QStringLiteral("validated")));
    QVERIFY(schema_of(path).join(QLatin1Char('\n')).contains(QStringLiteral("source_run_id")));
    QVERIFY(
        schema_of(path).join(QLatin1Char('\n')).contains(QStringLiteral("probe_results.variant")));
    QVERIFY(schema_of(path).join(QLatin1Char('\n')).contains(QStringLiteral("bus_bytes_per_s")));
    QVERIFY(schema_of(path).join(QLatin1Char('\n')).contains(QStringLiteral("content_digest")));
}

void TestWorkspace::migrationSplitsFoldedTestNames() {
    // Before version 4 the app stored a result's test and variant as one name: the access
    // pattern alone for the memory-bandwidth tests (stream on a CPU, memory_bandwidth on CUDA),
    // "test.variant" for other tests with a variant, and "matmul" without its library.
    const std::string path = fresh_path("old-v3-folded.sqlite");
    {
        sqlite::Database db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        db.exec(kOldSchemaV1);
        db.exec(kOldSchemaV2Additions);
        db.exec(kOldSchemaV3Additions);
        db.exec(
            "INSERT INTO probe_runs VALUES (1, 'cpu', 'laptop', '{}', '2024-01-04T00:00:00Z', "
            "'2024-01-04T00:01:00Z', 'ok')");
        db.exec(
            "INSERT INTO probe_runs VALUES (2, 'cuda', 'gpu01', '{}', '2024-01-05T00:00:00Z', "
            "'2024-01-05T00:01:00Z', 'ok')");
        const auto add = [&db](int run, const char* test, double bytes_per_s) {
            sqlite::Statement s(db,
                                "INSERT INTO probe_results (run_id, test, dtype, sizes_json, "
                                "flops, bytes, flops_per_s, bytes_per_s, median_s, min_s, max_s, "
                                "samples, status, reason, stdrel, validated) VALUES (?1, ?2, "
                                "'fp32', '{}', 0, 8.0, NULL, ?3, 1.0, 1.0, 1.0, 5, 'passed', '', "
                                "0.01, 1)");
            s.bind(1, std::int64_t{run}).bind(2, std::string(test)).bind(3, bytes_per_s);
            s.run();
        };
        add(1, "matmul", 1.0);
        add(1, "copy", 2.0);
        add(1, "triad", 3.0);
        add(1, "intensity_sweep.simd_fma", 4.0);
        add(1, "relu", 5.0);
        add(2, "copy", 2.9e12);
        add(2, "read", 3.1e12);
        add(2, "timing_lesson.host_clock_no_sync", 6.0);
        add(2, "host_device_copy.h2d_pinned", 7.0);
        add(2, "scale", 8.0);
    }
    Workspace ws = Workspace::open(path);
    QCOMPARE(ws.opened_schema_version(), 3);
    using Case = std::pair<std::string, std::string>;  // test, variant
    const auto cases = [&ws](std::int64_t run_id) {
        std::vector<Case> out;
        const std::optional<ProbeRunRecord> run = ws.find_probe_run(run_id);
        for (const ProbeResultRecord& r : run->results) {
            out.emplace_back(r.test, r.variant);
        }
        return out;
    };
    const std::vector<Case> cpu{{"matmul", ""},
                                {"stream", "copy"},
                                {"stream", "triad"},
                                {"intensity_sweep", "simd_fma"},
                                {"relu", ""}};
    const std::vector<Case> cuda{{"memory_bandwidth", "copy"},
                                 {"memory_bandwidth", "read"},
                                 {"timing_lesson", "host_clock_no_sync"},
                                 {"host_device_copy", "h2d_pinned"},
                                 {"memory_bandwidth", "scale"}};
    QCOMPARE(cases(1), cpu);
    QCOMPARE(cases(2), cuda);
    // The migrated rows still count: the CUDA run's best device bandwidth is its read, 3.1e12
    // bytes/s (faster than its copy, 2.9e12; scale is not a device-bandwidth pattern).
    const HardwareProfile p = ws.add_measured_profile(2, "h100-sxm", "lab", "Lab card");
    QCOMPARE(p.bandwidth_bytes_per_s, 3.1e12);
    QVERIFY(std::any_of(p.measured.begin(), p.measured.end(),
                        [](const MeasuredFigure& f) { return f.metric == "memory_read"; }));
}

void TestWorkspace::failedMigrationLeavesTheOldFile() {
    // A version 2 file that already has an object named like one version 3 creates: the step to
    // version 3 adds its column, then fails on the index. The whole migration must roll back.
    const std::string path = fresh_path("half-migrated-v2.sqlite");
    const std::string profile_json =
        to_json(duplicate_profile(*find_builtin_hardware("a100-80gb"), "old-card", "Old card"))
            .dump();
    {
        sqlite::Database db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        db.exec(kOldSchemaV1);
        db.exec(kOldSchemaV2Additions);
        db.exec("CREATE INDEX profiles_by_source_run ON profiles(name)");
        sqlite::Statement p(db,
                            "INSERT INTO profiles VALUES ('old-card', 'Old card', 'custom', ?1, "
                            "'2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z')");
        p.bind(1, profile_json);
        p.run();
    }
    const QStringList schema_before = schema_of(path);
    QVERIFY(!schema_before.join(QLatin1Char('\n')).contains(QStringLiteral("source_run_id")));

    QString message;
    try {
        Workspace::open(path);
        QFAIL("a migration that cannot complete opened the workspace");
    } catch (const WorkspaceError& e) {
        message = QString::fromUtf8(e.what());
    }
    QVERIFY2(message.contains(QString::fromStdString(path)), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("profiles_by_source_run")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("Nothing was saved")), qPrintable(message));

    // Still version 2, with version 2's columns (the ALTER TABLE of the failed step is gone) and
    // its rows, in the journal mode it had.
    QCOMPARE(schema_of(path), schema_before);
    sqlite::Database db = wstest::raw_read(path);
    QCOMPARE(db.query_int("PRAGMA user_version"), std::int64_t{2});
    QCOMPARE(QString::fromStdString(db.query_text("PRAGMA journal_mode")),
             QStringLiteral("delete"));
    QCOMPARE(wstest::count_rows(path, "profiles"), std::int64_t{1});
    QCOMPARE(QString::fromStdString(wstest::integrity(path)), QStringLiteral("ok"));
}

void TestWorkspace::defaultPathMatchesQt_data() {
    QTest::addColumn<QByteArray>("home");
    QTest::addColumn<QByteArray>("xdg");  // null: unset
    QTest::addColumn<QString>("expected");
    // XDG Base Directory Specification: $XDG_DATA_HOME, default $HOME/.local/share; + "/tally".
    QTest::newRow("XDG_DATA_HOME set") << QByteArray("/home/alice") << QByteArray("/srv/data")
                                       << QStringLiteral("/srv/data/tally/workspace.sqlite");
    QTest::newRow("XDG_DATA_HOME unset")
        << QByteArray("/home/alice") << QByteArray()
        << QStringLiteral("/home/alice/.local/share/tally/workspace.sqlite");
    QTest::newRow("XDG_DATA_HOME empty")
        << QByteArray("/home/bob") << QByteArray("")
        << QStringLiteral("/home/bob/.local/share/tally/workspace.sqlite");
}

void TestWorkspace::defaultPathMatchesQt() {
#if !defined(__linux__)
    QSKIP("the XDG rules are Linux's; Qt decides elsewhere");
#endif
    QFETCH(QByteArray, home);
    QFETCH(QByteArray, xdg);
    QFETCH(QString, expected);
    const QByteArray saved_home = qgetenv("HOME");
    const bool had_xdg = qEnvironmentVariableIsSet("XDG_DATA_HOME");
    const QByteArray saved_xdg = qgetenv("XDG_DATA_HOME");
    qputenv("HOME", home);
    if (xdg.isNull()) {
        qunsetenv("XDG_DATA_HOME");
    } else {
        qputenv("XDG_DATA_HOME", xdg);
    }
    const QString ours = QString::fromStdString(default_workspace_path().string());
    const QString qt = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                       QStringLiteral("/workspace.sqlite");
    qputenv("HOME", saved_home);
    if (had_xdg) {
        qputenv("XDG_DATA_HOME", saved_xdg);
    } else {
        qunsetenv("XDG_DATA_HOME");
    }
    QCOMPARE(QDir::cleanPath(ours), expected);
    QCOMPARE(QDir::cleanPath(qt), expected);
}

QTEST_GUILESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
