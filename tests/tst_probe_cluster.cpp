// The cluster probe without GPUs: the rank placement a launcher's environment gives, the
// bootstrap and the merging of the ranks' timings, and the collectives' closed forms; then
// `tally probe --launcher` through a stand-in srun (a bash script that starts N local ranks with
// Slurm's variables, two "hosts" by TALLY_PROBE_HOST) running the tcp backend, a fault injected
// on one rank of three, the nccl backend on a machine without GPUs, and rank 0 waiting for ranks
// that never come.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <nlohmann/json.hpp>

#include "gpu_probe/probe_cluster.h"
#include "gpu_probe/probe_collective_backend.h"
#include "gpu_probe/probe_collective_pattern.h"
#include "tests/cli_test_util.h"
#include "tests/fake_probe_util.h"

using namespace tally::probe;
using nlohmann::json;
using tally::test::kFakeSrun;
using tally::test::Run;

namespace {

EnvironmentLookup fake_environment(std::map<std::string, std::string> values) {
    return [values](std::string_view name) -> std::optional<std::string> {
        const auto it = values.find(std::string(name));
        if (it == values.end()) {
            return std::nullopt;
        }
        return it->second;
    };
}

// The environment of a child with no launcher variables of the test's own surroundings.
QProcessEnvironment clean_environment() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& key : env.keys()) {
        if (key.startsWith(QLatin1String("SLURM_")) || key.startsWith(QLatin1String("OMPI_")) ||
            key.startsWith(QLatin1String("PMI_")) || key == QLatin1String("TALLY_PROBE_HOST")) {
            env.remove(key);
        }
    }
    return env;
}

struct ProbeOutput {
    int exit_code = -1;
    std::vector<json> events;
    QByteArray err;
};

ProbeOutput run_process(const QString& program, const QStringList& args,
                        const QProcessEnvironment& env) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    ProbeOutput out;
    out.exit_code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    for (const QByteArray& line : p.readAllStandardOutput().split('\n')) {
        if (!line.trimmed().isEmpty()) {
            out.events.push_back(json::parse(line.toStdString(), nullptr, false));
        }
    }
    out.err = p.readAllStandardError();
    return out;
}

int count_events(const std::vector<json>& events, const std::string& name) {
    int n = 0;
    for (const json& e : events) {
        n += e.value("event", "") == name ? 1 : 0;
    }
    return n;
}

}  // namespace

class TestProbeCluster : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void placementFromTheLauncher_data();
    void placementFromTheLauncher();
    void bootstrapAddress();
    void countsAndSizes();
    void mergedSampleIsTheSlowestRank();
    void closedForms();
    void launcherRunsRanksAndSavesTheirFigures();
    void remoteHostLaunchesTheRanks();
    void faultOnOneRankFailsTheCase();
    void ncclWithoutGpuSaysSoInOneLine();
    void rankZeroWaitsForRanksThatNeverCome();

private:
    QTemporaryDir m_dir;
    QString m_srun;
};

void TestProbeCluster::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_srun = m_dir.filePath(QStringLiteral("srun"));
    QFile f(m_srun);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(kFakeSrun);
    f.close();
    f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

void TestProbeCluster::placementFromTheLauncher_data() {
    QTest::addColumn<QString>("variables");  // NAME=VALUE,...
    QTest::addColumn<int>("rank");
    QTest::addColumn<int>("size");
    QTest::addColumn<int>("localRank");
    QTest::addColumn<QString>("launcher");
    QTest::newRow("no launcher: one rank") << "" << 0 << 1 << 0 << "";
    QTest::newRow("srun step") << "SLURM_PROCID=5,SLURM_STEP_NUM_TASKS=16,SLURM_NTASKS=32,"
                                  "SLURM_LOCALID=5"
                               << 5 << 16 << 5 << "slurm";
    QTest::newRow("slurm without a step count")
        << "SLURM_PROCID=3,SLURM_NTASKS=8,SLURM_LOCALID=3" << 3 << 8 << 3 << "slurm";
    QTest::newRow("open mpi") << "OMPI_COMM_WORLD_RANK=9,OMPI_COMM_WORLD_SIZE=16,"
                                 "OMPI_COMM_WORLD_LOCAL_RANK=1"
                              << 9 << 16 << 1 << "open-mpi";
    QTest::newRow("mpich pmi") << "PMI_RANK=2,PMI_SIZE=4,MPI_LOCALRANKID=0" << 2 << 4 << 0 << "pmi";
}

void TestProbeCluster::placementFromTheLauncher() {
    QFETCH(QString, variables);
    QFETCH(int, rank);
    QFETCH(int, size);
    QFETCH(int, localRank);
    QFETCH(QString, launcher);
    std::map<std::string, std::string> values;
    for (const QString& pair : variables.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList kv = pair.split(QLatin1Char('='));
        values[kv[0].toStdString()] = kv[1].toStdString();
    }
    const RankPlacement p = rank_placement(fake_environment(values));
    QCOMPARE(p.rank, rank);
    QCOMPARE(p.size, size);
    QCOMPARE(p.local_rank, localRank);
    QCOMPARE(QString::fromStdString(p.launcher), launcher);
}

void TestProbeCluster::bootstrapAddress() {
    const BootstrapAddress a = parse_bootstrap_address("node-01.cluster:29500");
    QCOMPARE(a.host, std::string("node-01.cluster"));
    QCOMPARE(a.port, 29500);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parse_bootstrap_address("node-01"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parse_bootstrap_address("node:0"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parse_bootstrap_address("node:70000"));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        rank_placement(fake_environment({{"SLURM_PROCID", "4"}, {"SLURM_NTASKS", "4"}})));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             rank_placement(fake_environment({{"PMI_RANK", "x"}})));
}

void TestProbeCluster::countsAndSizes() {
    // 1 KiB of fp32 is 256 elements; over groups of 3 (and the world of 6) the count must split
    // into whole blocks: lcm(6, 3) = 6, 256 rounded down to 252.
    QCOMPARE(collective_count(1024, {6, 3, 3, 3, 3, 3, 3}), std::int64_t{252});
    QCOMPARE(collective_count(1024, {4, 2, 2, 2, 2}), std::int64_t{256});
    // Too small for one element per rank: one block.
    QCOMPARE(collective_count(8, {16}), std::int64_t{16});
    // 1 KiB, 4 KiB, ..., 1 GiB: 4^0 .. 4^10 KiB, eleven sizes.
    const std::vector<std::int64_t> full = collective_sizes(false, std::int64_t{1} << 40);
    QCOMPARE(full.size(), std::size_t{11});
    QCOMPARE(full.front(), std::int64_t{1024});
    QCOMPARE(full.back(), std::int64_t{1} << 30);
    QCOMPARE(collective_sizes(true, std::int64_t{1} << 20),
             (std::vector<std::int64_t>{1024, std::int64_t{1} << 20}));
}

void TestProbeCluster::mergedSampleIsTheSlowestRank() {
    QCOMPARE(merged_sample_s({1.0e-3, 1.5e-3, 0.9e-3}), 1.5e-3);
    QCOMPARE(merged_sample_s({2.0}), 2.0);
}

void TestProbeCluster::closedForms() {
    // Rank r's element i is (r + 1)(i mod 13 + 1).
    QCOMPARE(collective_input(0, 0), 1.0f);
    QCOMPARE(collective_input(2, 14), 6.0f);  // 3 * (14 mod 13 + 1) = 3 * 2
    // All-reduce of 4 ranks: (1 + 2 + 3 + 4)(i mod 13 + 1) = 10 * 4 at i = 3.
    QCOMPARE(collective_expected(Collective::all_reduce, 4, 1, 100, 3), 40.0f);
    // All-gather, 4 ranks, count 100 (blocks of 25): element 60 is rank 2's element 10:
    // 3 * 11 = 33.
    QCOMPARE(collective_expected(Collective::all_gather, 4, 0, 100, 60), 33.0f);
    // Reduce-scatter: rank 1 of 4 holds the sum at 25 + 5 = 30: 10 * (30 mod 13 + 1) = 50.
    QCOMPARE(collective_expected(Collective::reduce_scatter, 4, 1, 100, 5), 50.0f);
    // All-to-all: rank 1 of 4, element 60 came from rank 2 (block 2), its element 25 + 10 = 35:
    // 3 * (35 mod 13 + 1) = 3 * 10 = 30.
    QCOMPARE(collective_expected(Collective::alltoall, 4, 1, 100, 60), 30.0f);
    // Send/recv around the ring: rank 0 of 4 receives rank 3's: 4 * (7 + 1) = 32.
    QCOMPARE(collective_expected(Collective::sendrecv, 4, 0, 100, 7), 32.0f);
    // Buffer lengths: all-gather sends a block, reduce-scatter receives one.
    QCOMPARE(collective_send_count(Collective::all_gather, 100, 4), std::int64_t{25});
    QCOMPARE(collective_recv_count(Collective::reduce_scatter, 100, 4), std::int64_t{25});
    QCOMPARE(collective_recv_count(Collective::all_gather, 100, 4), std::int64_t{100});
}

void TestProbeCluster::launcherRunsRanksAndSavesTheirFigures() {
    const QString db = m_dir.filePath(QStringLiteral("cluster.sqlite"));
    QProcess tally;
    tally.setProcessEnvironment(clean_environment());
    tally.setWorkingDirectory(m_dir.path());
    tally.start(QStringLiteral(TALLY_BIN),
                {QStringLiteral("probe"), QStringLiteral("--launcher"),
                 m_srun + QStringLiteral(" -N 2 --ntasks-per-node 2 --gpus-per-node 2"),
                 QStringLiteral("--backend"), QStringLiteral("tcp"), QStringLiteral("--probe"),
                 QStringLiteral(TALLY_PROBE_PATH), QStringLiteral("--quick"),
                 QStringLiteral("--tests"), QStringLiteral("all_reduce,sendrecv"),
                 QStringLiteral("--db"), db, QStringLiteral("--json")});
    QVERIFY(tally.waitForFinished(120000));
    const QByteArray err = tally.readAllStandardError();
    QVERIFY2(tally.exitCode() == 0, err.constData());
    const json out = json::parse(tally.readAllStandardOutput().toStdString());
    QCOMPARE(out["device"]["ranks"].get<int>(), 4);
    QCOMPARE(out["device"]["nodes"].get<int>(), 2);
    QVERIFY(!out["host"].get<std::string>().empty());  // rank 0's
    // Per test: 1 KiB and 1 MiB (the tcp backend's quick sizes) over all four ranks, then over
    // each host's two at once.
    const json& results = out["results"];
    QCOMPARE(results.size(), std::size_t{8});
    double best_intra = 0.0;
    double best_inter = 0.0;
    for (const json& r : results) {
        QVERIFY2(r["status"] == "passed" && r["validated"] == true, r.dump().c_str());
        const int ranks = r["sizes"]["ranks"].get<int>();
        const int nodes = r["sizes"]["nodes"].get<int>();
        QVERIFY((ranks == 4 && nodes == 2) || (ranks == 2 && nodes == 1));
        // nccl-tests' bus bandwidth: all-reduce 2(n-1)/n (1.5 for 4 ranks, 1 for 2), send/recv 1.
        const double factor = r["test"] == "sendrecv" ? 1.0 : (ranks == 4 ? 1.5 : 1.0);
        QVERIFY(std::abs(r["bus_bytes_per_s"].get<double>() -
                         r["bytes_per_s"].get<double>() * factor) <=
                1e-9 * r["bus_bytes_per_s"].get<double>());
        // bytes / median: the algorithm bandwidth.
        QVERIFY(std::abs(r["bytes_per_s"].get<double>() -
                         r["bytes"].get<double>() / r["median_s"].get<double>()) <=
                1e-9 * r["bytes_per_s"].get<double>());
        if (r["test"] == "all_reduce") {
            double& best = nodes == 1 ? best_intra : best_inter;
            best = std::max(best, r["bus_bytes_per_s"].get<double>());
        }
    }
    QCOMPARE(out["results"][0]["sizes"]["bytes"].get<int>(), 1024);
    // Only rank 0 spoke: the run was saved once; the bootstrap file is gone.
    const Run list = tally::test::run_tally({QStringLiteral("probes"), QStringLiteral("list"),
                                             QStringLiteral("--json"), QStringLiteral("--db"), db});
    QCOMPARE(json::parse(list.out.toStdString()).size(), std::size_t{1});
    QCOMPARE(
        QDir(m_dir.path())
            .entryList({QStringLiteral(".tally-probe-bootstrap-*")}, QDir::Files | QDir::Hidden),
        QStringList());
    // A measured profile takes the intra-node and inter-node figures from the all-reduces.
    const QString id = QString::number(out["run_id"].get<std::int64_t>());
    const Run made = tally::test::run_tally(
        {QStringLiteral("profiles"), QStringLiteral("add"), QStringLiteral("--from-run"), id,
         QStringLiteral("--base"), QStringLiteral("h100-sxm"), QStringLiteral("--id"),
         QStringLiteral("tcp-pair"), QStringLiteral("--name"), QStringLiteral("TCP pair"),
         QStringLiteral("--db"), db});
    QVERIFY2(made.exit_code == 0, made.err.constData());
    const Run shown = tally::test::run_tally({QStringLiteral("profiles"), QStringLiteral("show"),
                                              QStringLiteral("tcp-pair"), QStringLiteral("--json"),
                                              QStringLiteral("--db"), db});
    const json p = json::parse(shown.out.toStdString());
    QCOMPARE(p["interconnect"]["bandwidth_bytes_per_s_per_direction"].get<double>(), best_intra);
    QCOMPARE(p["network"]["inter_node_bytes_per_s_per_direction"].get<double>(), best_inter);
}

void TestProbeCluster::remoteHostLaunchesTheRanks() {
    // --remote and --launcher together: ssh (a stand-in that runs the command here) starts srun
    // (the stand-in) on the "login node", which starts the ranks.
    const QString ssh = m_dir.filePath(QStringLiteral("ssh"));
    const QString argsFile = m_dir.filePath(QStringLiteral("ssh-args.txt"));
    {
        QFile f(ssh);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/bash\nprintf '%s\\n' \"$@\" > '" + argsFile.toUtf8() +
                "'\nwhile [ \"$1\" = -o ]; do shift 2; done\nshift\nexec /bin/sh -c \"$1\"\n");
        f.close();
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    QProcessEnvironment env = clean_environment();
    env.insert(QStringLiteral("TALLY_SSH"), ssh);
    QProcess tally;
    tally.setProcessEnvironment(env);
    tally.setWorkingDirectory(m_dir.path());
    const QString db = m_dir.filePath(QStringLiteral("remote-cluster.sqlite"));
    tally.start(QStringLiteral(TALLY_BIN),
                {QStringLiteral("probe"), QStringLiteral("--remote"), QStringLiteral("login-node"),
                 QStringLiteral("--launcher"), m_srun + QStringLiteral(" -n 2"),
                 QStringLiteral("--remote-probe"), QStringLiteral(TALLY_PROBE_PATH),
                 QStringLiteral("--backend"), QStringLiteral("tcp"), QStringLiteral("--quick"),
                 QStringLiteral("--tests"), QStringLiteral("sendrecv"), QStringLiteral("--db"), db,
                 QStringLiteral("--json")});
    QVERIFY(tally.waitForFinished(120000));
    QVERIFY2(tally.exitCode() == 0, tally.readAllStandardError().constData());
    const json out = json::parse(tally.readAllStandardOutput().toStdString());
    QCOMPARE(out["device"]["ranks"].get<int>(), 2);
    QCOMPARE(out["results"].size(), std::size_t{2});
    // The remote command: the launcher, the probe, its options, the bootstrap file (relative:
    // the ranks find it in the folder srun starts them in).
    QFile args(argsFile);
    QVERIFY(args.open(QIODevice::ReadOnly));
    const QList<QByteArray> words = args.readAll().split('\n');
    QCOMPARE(words.value(2), QByteArray("login-node"));
    const QByteArray command = words.value(3);
    QVERIFY2(
        command.startsWith((m_srun + QStringLiteral(" -n 2 ") + QStringLiteral(TALLY_PROBE_PATH) +
                            QStringLiteral(" --backend tcp --quick --tests sendrecv "
                                           "--bootstrap-file .tally-probe-bootstrap-"))
                               .toUtf8()),
        command.constData());
}

void TestProbeCluster::faultOnOneRankFailsTheCase() {
    // Three ranks on one host meeting at a TCP address; rank 0's output is corrupted.
    const QString port = QString::number(20000 + QCoreApplication::applicationPid() % 20000);
    const ProbeOutput out =
        run_process(m_srun,
                    {QStringLiteral("-n"), QStringLiteral("3"), QStringLiteral(TALLY_PROBE_PATH),
                     QStringLiteral("--backend"), QStringLiteral("tcp"), QStringLiteral("--quick"),
                     QStringLiteral("--tests"), QStringLiteral("all_reduce"),
                     QStringLiteral("--inject-fault"), QStringLiteral("all_reduce"),
                     QStringLiteral("--bootstrap-address"), QStringLiteral("127.0.0.1:") + port},
                    clean_environment());
    QCOMPARE(out.exit_code, 1);
    QCOMPARE(count_events(out.events, "start"), 1);
    QCOMPARE(count_events(out.events, "done"), 1);
    int failed = 0;
    for (const json& e : out.events) {
        if (e.value("event", "") == "result") {
            QCOMPARE(e["status"].get<std::string>(), std::string("failed"));
            QVERIFY(e["reason"].get<std::string>().find("on 1 of 3 ranks") != std::string::npos);
            QCOMPARE(e["sizes"]["ranks"].get<int>(), 3);
            // 1 KiB over 3 ranks: 256 elements rounded down to 255, 1020 bytes.
            ++failed;
        }
    }
    QCOMPARE(failed, 2);
    QCOMPARE(out.events[2]["event"].get<std::string>(), std::string("progress"));
}

void TestProbeCluster::ncclWithoutGpuSaysSoInOneLine() {
    const ProbeOutput out =
        run_process(QStringLiteral(TALLY_PROBE_PATH),
                    {QStringLiteral("--backend"), QStringLiteral("nccl")}, clean_environment());
    QCOMPARE(out.exit_code, 3);
    QCOMPARE(out.events.size(), std::size_t{1});
    QCOMPARE(out.events[0]["event"].get<std::string>(), std::string("error"));
    QCOMPARE(out.events[0]["fatal"].get<bool>(), true);
    QCOMPARE(out.events[0]["exit_code"].get<int>(), 3);
}

void TestProbeCluster::rankZeroWaitsForRanksThatNeverCome() {
    QProcessEnvironment env = clean_environment();
    env.insert(QStringLiteral("SLURM_PROCID"), QStringLiteral("0"));
    env.insert(QStringLiteral("SLURM_NTASKS"), QStringLiteral("2"));
    const QString file = m_dir.filePath(QStringLiteral("lonely"));
    const ProbeOutput out = run_process(
        QStringLiteral(TALLY_PROBE_PATH),
        {QStringLiteral("--backend"), QStringLiteral("tcp"), QStringLiteral("--bootstrap-file"),
         file, QStringLiteral("--bootstrap-timeout-s"), QStringLiteral("1")},
        env);
    QCOMPARE(out.exit_code, 1);
    QCOMPARE(out.events.size(), std::size_t{1});
    QVERIFY(out.events[0]["message"].get<std::string>().find("waited for the other ranks") !=
            std::string::npos);
    QVERIFY(!QFile::exists(file));
}

QTEST_GUILESS_MAIN(TestProbeCluster)
#include "tst_probe_cluster.moc"
