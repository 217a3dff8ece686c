// `tally export` and `tally import` as a user runs them: the built binary, its files and its exit
// codes.
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "tests/cli_test_util.h"

using nlohmann::json;

namespace {

using tally::test::Run;
using tally::test::run_tally;

QString example(const char* name) {
    return QStringLiteral(TALLY_SOURCE_DIR "/resources/examples/") + QLatin1String(name);
}

QByteArray contents(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Llama 3 8B on 64 H100s, 8192 tokens a sequence, 512 sequences a step; `training` adds the
// layout.
QString write_spec(const QTemporaryDir& dir, const QByteArray& training) {
    const QString path = dir.filePath(QStringLiteral("spec.json"));
    QFile f(path);
    if (f.open(QIODevice::WriteOnly)) {
        f.write(R"({"model": {"preset": "llama-3-8b"},
            "data": {"tokens": 1e12, "seq_len": 8192, "global_batch": 512, "micro_batch": 1},
            "cluster": {"gpu": "h100-sxm", "gpus": 64},
            "training": {)" +
                training + "}}");
    }
    return path;
}

}  // namespace

class TestCliLaunch : public QObject {
    Q_OBJECT

private slots:
    void servingPlanAsItsEngineCommand();
    void servingCommandImportedAsAPlan();
    void exportThenImport();
    void exportRefusesByName();
    void badInputWritesNothing_data();
    void badInputWritesNothing();
    void deepspeedNeedsTheModel();
    void zeroGpusRefused();
    void outputMustNotBeTheInput();
    void importSaysWhatItAssumed();
    void exportSaysItsNotes();
    void unwritableOutputFails();
    void outputKeepsWhatIsThere();
};

// The plan the window opens on, to Megatron-LM arguments and back, then planned.
void TestCliLaunch::exportThenImport() {
    QTemporaryDir dir;
    const QString args = dir.filePath(QStringLiteral("run.sh"));
    const QString spec = dir.filePath(QStringLiteral("spec.json"));
    Run r =
        run_tally({QStringLiteral("export"), example("llama-3-70b-15t-1024-h100.json"),
                   QStringLiteral("--to"), QStringLiteral("megatron"), QStringLiteral("-o"), args});
    QCOMPARE(r.exit_code, 0);
    QVERIFY(r.out.isEmpty());
    r = run_tally({QStringLiteral("import"), args, QStringLiteral("-o"), spec});
    QCOMPARE(r.exit_code, 0);
    // What was read is listed on standard error, line by line: three lines of header and nine of
    // Tally's own settings (the plan's name first), the launcher on line 13, then one argument a
    // line.
    QVERIFY2(r.err.contains("line 14: num-layers = 80 -> model.layers"), r.err.constData());
    QVERIFY2(r.err.contains("line 7: tally: cluster.price_per_gpu_hour = 2.5 -> "
                            "cluster.price_per_gpu_hour"),
             r.err.constData());
    QFile f(spec);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const json j = json::parse(f.readAll().toStdString());
    QCOMPARE(j["model"]["layers"].get<int>(), 80);
    // The example's own name, not the file's.
    QCOMPARE(j["name"].get<std::string>(),
             std::string("Llama 3 70B on 15T tokens, 1024 H100: tp 8, pp 4, sequence parallel, "
                         "ZeRO-1"));
    QCOMPARE(j["cluster"]["gpus"].get<int>(), 1024);  // 128 nodes x 8
    QCOMPARE(j["training"]["tp"].get<int>(), 8);
    QCOMPARE(j["training"]["pp"].get<int>(), 4);
    QCOMPARE(j["training"]["zero"].get<int>(), 1);
    // The example's price and FLOPs formula come back through the comment block.
    QCOMPARE(j["cluster"]["price_per_gpu_hour"].get<double>(), 2.5);
    QCOMPARE(j["training"]["flops_formula"].get<std::string>(), std::string("attention"));
    // So do the example's 15e12 tokens, which --train-samples rounds to whole steps of 512 x
    // 8192: 3,576,279 steps, alone 3576279 x 4194304 = 15,000,001,314,816.
    QCOMPARE(j["data"]["tokens"].get<double>(), 15e12);
    r = run_tally({QStringLiteral("plan"), spec, QStringLiteral("--json")});
    QCOMPARE(r.exit_code, 0);
}

void TestCliLaunch::exportRefusesByName() {
    const Run r = run_tally({QStringLiteral("export"), example("deepseek-v3-h800.json"),
                             QStringLiteral("--to"), QStringLiteral("megatron")});
    QCOMPARE(r.exit_code, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY(r.err.contains("training.zero: got 3"));
    const Run unknown = run_tally({QStringLiteral("export"), example("deepseek-v3-h800.json"),
                                   QStringLiteral("--to"), QStringLiteral("jax")});
    QCOMPARE(unknown.exit_code, 2);
    QVERIFY(unknown.err.contains("--to"));
    // A plan `tally plan` refuses is not written either: Llama 3 70B at tp 8, pp 4 on 1024 GPUs
    // has 1024 / 32 = 32 data-parallel ranks, and a global batch of 100 is no multiple of
    // micro-batch 1 x 32 (Megatron-LM stops at start-up: num_microbatches_calculator.py).
    QFile example_file(example("llama-3-70b-15t-1024-h100.json"));
    QVERIFY(example_file.open(QIODevice::ReadOnly));
    QByteArray spec = example_file.readAll();
    const qsizetype batch = spec.indexOf("\"global_batch\": 512");
    QVERIFY(batch >= 0);
    spec.replace(batch, qsizetype(sizeof("\"global_batch\": 512") - 1), "\"global_batch\": 100");
    for (const char* to : {"megatron", "deepspeed"}) {
        const Run refused = run_tally({QStringLiteral("export"), QStringLiteral("-"),
                                       QStringLiteral("--to"), QString::fromLatin1(to)},
                                      spec);
        QCOMPARE(refused.exit_code, 2);
        QVERIFY(refused.out.isEmpty());
        QVERIFY2(refused.err.contains("data.global_batch: got 100"), qPrintable(refused.err));
    }
}

void TestCliLaunch::badInputWritesNothing_data() {
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QByteArray>("named");
    const QByteArray args =
        "--num-layers 32 --hidden-size 4096 --num-attention-heads 32 "
        "--ffn-hidden-size 14336 --vocab-size 32000 "
        "--max-position-embeddings 4096 --seq-length 4096 ";
    QTest::newRow("truncated TOML") << QByteArray("[parallelism]\ntensor_parallel_degree = ")
                                    << "torchtitan" << QByteArray("line 2");
    QTest::newRow("unknown flag") << args + "--tensor-parallel 8"
                                  << "megatron" << QByteArray("tensor-parallel (line 1)");
    QTest::newRow("non-integer size") << args + "--micro-batch-size 1.5"
                                      << "megatron" << QByteArray("micro-batch-size (line 1)");
    // 8-way tensor parallelism on 12 GPUs.
    QTest::newRow("layout does not divide")
        << "torchrun --nnodes 1 --nproc-per-node 12 pretrain_gpt.py " + args +
               "--tensor-model-parallel-size 8"
        << "megatron" << QByteArray("cluster.gpus");
}

void TestCliLaunch::badInputWritesNothing() {
    QFETCH(QByteArray, input);
    QFETCH(QString, from);
    QFETCH(QByteArray, named);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("spec.json"));
    const Run r = run_tally({QStringLiteral("import"), QStringLiteral("-"),
                             QStringLiteral("--from"), from, QStringLiteral("-o"), out},
                            input);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains(named), r.err.constData());
    QVERIFY(!QFile::exists(out));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0);
}

// --gpus 0 is not a world size: refused like a negative one (it was read as "not given").
void TestCliLaunch::zeroGpusRefused() {
    for (const char* gpus : {"0", "-8"}) {
        const Run r = run_tally(
            {QStringLiteral("import"), QStringLiteral("-"), QStringLiteral("--from"),
             QStringLiteral("torchtitan"), QStringLiteral("--gpus"), QString::fromLatin1(gpus)},
            QByteArray("[parallelism]\ntensor_parallel_degree = 1\n"));
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("--gpus"), r.err.constData());
    }
}

void TestCliLaunch::deepspeedNeedsTheModel() {
    const QByteArray ds = R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 2,
        "gradient_accumulation_steps": 4, "bf16": {"enabled": true},
        "zero_optimization": {"stage": 3}})";
    const Run r = run_tally({QStringLiteral("import"), QStringLiteral("-"),
                             QStringLiteral("--from"), QStringLiteral("deepspeed")},
                            ds);
    QCOMPARE(r.exit_code, 2);
    QVERIFY(r.err.contains("--hf-config"));
    // With the model's config.json the import plans it, and the context length is the config's
    // (max_position_embeddings 8192), not a default DeepSpeed's JSON failed to give.
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("config.json"));
    QFile out(config);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(R"({"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096,
        "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
        "vocab_size": 128256, "max_position_embeddings": 8192, "hidden_act": "silu",
        "tie_word_embeddings": false})");
    out.close();
    const Run with =
        run_tally({QStringLiteral("import"), QStringLiteral("-"), QStringLiteral("--from"),
                   QStringLiteral("deepspeed"), QStringLiteral("--hf-config"), config,
                   QStringLiteral("--gpus"), QStringLiteral("8")},
                  ds);
    QCOMPARE(with.exit_code, 0);
    QCOMPARE(json::parse(with.out.toStdString())["model"]["context_length"].get<int>(), 8192);
    QVERIFY2(!with.err.contains("model.context_length"), with.err.constData());
}

// -o naming the file the command reads (by the same path or another spelling of it) is refused,
// and the file is left as it was.
void TestCliLaunch::outputMustNotBeTheInput() {
    QTemporaryDir dir;
    const QString args = dir.filePath(QStringLiteral("run.sh"));
    Run r =
        run_tally({QStringLiteral("export"), example("llama-3-70b-15t-1024-h100.json"),
                   QStringLiteral("--to"), QStringLiteral("megatron"), QStringLiteral("-o"), args});
    QCOMPARE(r.exit_code, 0);
    const QByteArray before = contents(args);
    for (const QString& out : {args, dir.path() + QStringLiteral("/./run.sh")}) {
        r = run_tally({QStringLiteral("import"), args, QStringLiteral("-o"), out});
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("-o: got"), r.err.constData());
        QVERIFY2(r.err.contains("a file other than FILE"), r.err.constData());
        QCOMPARE(contents(args), before);
    }
    const QString spec = write_spec(dir, R"("zero": 1, "tp": 8, "sequence_parallel": true)");
    const QByteArray plan = contents(spec);
    r = run_tally({QStringLiteral("export"), spec, QStringLiteral("--to"),
                   QStringLiteral("megatron"), QStringLiteral("-o"), spec});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("a file other than SPEC"), r.err.constData());
    QCOMPARE(contents(spec), plan);
    // Another file is fine.
    r = run_tally({QStringLiteral("import"), args, QStringLiteral("-o"),
                   dir.filePath(QStringLiteral("back.json"))});
    QCOMPARE(r.exit_code, 0);
}

// An accelerate YAML holds no batch and no sequence length: the import lists the values it
// took. The step: Tally's micro-batch of 1 on each of 64 / (tp 1) data-parallel ranks, 64
// sequences, where the plan had 512; the sequence Tally's default 4096, where it had 8192.
void TestCliLaunch::importSaysWhatItAssumed() {
    QTemporaryDir dir;
    const QString spec = write_spec(dir, R"("zero": 3, "tp": 1)");
    const QString yaml = dir.filePath(QStringLiteral("fsdp.yaml"));
    Run r = run_tally({QStringLiteral("export"), spec, QStringLiteral("--to"),
                       QStringLiteral("accelerate"), QStringLiteral("-o"), yaml});
    QCOMPARE(r.exit_code, 0);
    r = run_tally({QStringLiteral("import"), yaml, QStringLiteral("--hf-config"),
                   QStringLiteral(TALLY_SOURCE_DIR "/tests/fuzz/corpus/hf_config/llama-3-8b.json"),
                   QStringLiteral("-o"), dir.filePath(QStringLiteral("back.json"))});
    QCOMPARE(r.exit_code, 0);
    // accelerate's YAML has no sequence length or batch: the export carries the plan's in its
    // "# tally:" lines, so they come back as they were (8192, 512, 1), not assumed.
    QVERIFY2(!r.err.contains("assumed: data.seq_len"), r.err.constData());
    QFile back(dir.filePath(QStringLiteral("back.json")));
    QVERIFY(back.open(QIODevice::ReadOnly));
    const json j = json::parse(back.readAll().toStdString());
    QCOMPARE(j["data"]["seq_len"].get<int>(), 8192);
    QCOMPARE(j["data"]["global_batch"].get<int>(), 512);
    QCOMPARE(j["data"]["micro_batch"].get<int>(), 1);
    // A YAML without those lines (as accelerate config writes one): each is assumed, and said.
    QFile f(yaml);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray text;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (!line.startsWith("# tally: data.")) {
            text += line + '\n';
        }
    }
    f.close();
    const QString bare = dir.filePath(QStringLiteral("bare.yaml"));
    QFile out(bare);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(text);
    out.close();
    r = run_tally({QStringLiteral("import"), bare, QStringLiteral("--hf-config"),
                   QStringLiteral(TALLY_SOURCE_DIR "/tests/fuzz/corpus/hf_config/llama-3-8b.json"),
                   QStringLiteral("-o"), dir.filePath(QStringLiteral("bare.json"))});
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.err.contains("assumed: data.global_batch = 0 (one micro-batch per data-parallel "
                            "rank: 1 x 64 = 64)"),
             r.err.constData());
    QVERIFY2(r.err.contains("assumed: data.seq_len = 4096: "), r.err.constData());
    QVERIFY2(r.err.contains("assumed: data.micro_batch = 1: "), r.err.constData());
    // A file written on a workspace profile (its id in the Tally block) is read, and the import
    // says the plan needs that profile where it is planned.
    const QByteArray custom =
        "# tally: cluster.gpu = h100-ourdc-200g\n"
        "--num-layers 32 --hidden-size 4096 --num-attention-heads 32 --ffn-hidden-size 14336 "
        "--vocab-size 128256 --max-position-embeddings 8192 --seq-length 8192 --bf16\n";
    r = run_tally({QStringLiteral("import"), QStringLiteral("-"), QStringLiteral("--from"),
                   QStringLiteral("megatron")},
                  custom);
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.err.contains("cluster.gpu = h100-ourdc-200g: no built-in GPU has this id"),
             r.err.constData());
}

// torchtitan runs tensor parallelism sequence parallel: a plan that is not says so on standard
// error, and the file still goes to standard output.
void TestCliLaunch::exportSaysItsNotes() {
    QTemporaryDir dir;
    const QString spec = write_spec(dir, R"("zero": 3, "tp": 8, "sequence_parallel": false)");
    const Run r = run_tally(
        {QStringLiteral("export"), spec, QStringLiteral("--to"), QStringLiteral("torchtitan")});
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.err.contains("note: torchtitan's tensor parallelism always shards"),
             r.err.constData());
    QVERIFY(r.out.contains("tensor_parallel_degree = 8"));
}

// The shipped Llama 3 70B serving example (4 H100, tp 4, fp8 weights, a batch of 32 of 2048 +
// 512 tokens) as vLLM's command: the preset's checkpoint, tp 4, the 2560-token context, 32
// sequences, vLLM's fp8 quantization of the weights.
void TestCliLaunch::servingPlanAsItsEngineCommand() {
    const Run r = run_tally({QStringLiteral("export"), example("llama-3-70b-serve-4xh100-fp8.json"),
                             QStringLiteral("--to"), QStringLiteral("vllm")});
    QCOMPARE(r.exit_code, 0);
    for (const char* line : {"vllm serve meta-llama/Meta-Llama-3-70B \\\n",
                             "    --tensor-parallel-size 4 \\\n", "    --max-model-len 2560 \\\n",
                             "    --max-num-seqs 32 \\\n", "    --quantization fp8 \\\n",
                             // the engine's dtype, the bf16 KV cache's, beside fp8 weights
                             "    --dtype bfloat16\n"}) {
        QVERIFY2(r.out.contains(line), r.out.constData());
    }
    // --model names another checkpoint; a training framework's file has none to name.
    const Run own =
        run_tally({QStringLiteral("export"), example("llama-3-70b-serve-4xh100-fp8.json"),
                   QStringLiteral("--to"), QStringLiteral("sglang"), QStringLiteral("--model"),
                   QStringLiteral("/models/l3-70b-fp8")});
    QCOMPARE(own.exit_code, 0);
    QVERIFY2(own.out.contains("    --model-path /models/l3-70b-fp8 \\\n"), own.out.constData());
    // An engine Tally has no command for is refused by listing every target --to takes.
    const Run fast =
        run_tally({QStringLiteral("export"), example("llama-3-70b-serve-4xh100-fp8.json"),
                   QStringLiteral("--to"), QStringLiteral("gpt_fast"), QStringLiteral("--model"),
                   QStringLiteral("x")});
    QCOMPARE(fast.exit_code, 2);
    QVERIFY2(fast.err.contains("--to: got \"gpt_fast\"; one of "
                               "megatron|nemo|torchtitan|deepspeed|accelerate|vllm|sglang|"
                               "tensorrt_llm"),
             fast.err.constData());
    const Run refused =
        run_tally({QStringLiteral("export"), example("llama-3-70b-15t-1024-h100.json"),
                   QStringLiteral("--to"), QStringLiteral("megatron"), QStringLiteral("--model"),
                   QStringLiteral("x")});
    QCOMPARE(refused.exit_code, 2);
    QVERIFY2(refused.err.contains("--model"), refused.err.constData());
}

// `tally import` reads a serving command (from standard input here) as a serving plan, and
// `tally infer` plans it: vLLM at tp 4 with 0.92 of the memory, the Llama 3 70B Instruct tuning
// of the preset, an 8192-token context of 8192 - 256 = 7936 prompt tokens (Tally's default 256
// output tokens), 64 sequences; what it assumed is listed on standard error.
void TestCliLaunch::servingCommandImportedAsAPlan() {
    const QByteArray command =
        "vllm serve meta-llama/Meta-Llama-3-70B-Instruct --tensor-parallel-size 4 "
        "--max-model-len 8192 --max-num-seqs 64 --gpu-memory-utilization 0.92 --port 8000\n";
    const Run r = run_tally({QStringLiteral("import"), QStringLiteral("-")}, command);
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.err.contains("- as vLLM serve command"), r.err.constData());
    QVERIFY2(r.err.contains("assumed: inference.prompt_tokens = 7936, output_tokens = 256"),
             r.err.constData());
    const nlohmann::json spec = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(spec["inference"]["tp"].get<int>(), 4);
    QCOMPARE(spec["inference"]["concurrency"].get<int>(), 64);
    QCOMPARE(spec["inference"]["memory_fraction"].get<double>(), 0.92);
    QCOMPARE(spec["cluster"]["gpus"].get<int>(), 4);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("served.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(r.out);
    file.close();
    const Run plan = run_tally({QStringLiteral("infer"), path});
    QCOMPARE(plan.exit_code, 0);
    QVERIFY2(plan.out.contains("gpu_memory_utilization 0.92 (inference.memory_fraction)"),
             plan.out.constData());
    // --from names the engine; a flag vLLM has and Tally does not know is refused by name.
    const Run unknown = run_tally({QStringLiteral("import"), QStringLiteral("-"),
                                   QStringLiteral("--from"), QStringLiteral("vllm")},
                                  "vllm serve meta-llama/Meta-Llama-3-8B --speculative-config x\n");
    QCOMPARE(unknown.exit_code, 2);
    QVERIFY2(unknown.err.contains("--speculative-config"), unknown.err.constData());
}

QTEST_GUILESS_MAIN(TestCliLaunch)
// /dev/full takes no byte (every write fails with ENOSPC): a launch file sent there, as to a full
// disk behind `> run.sh`, is not written, and the command says so and exits 1 rather than 0.
void TestCliLaunch::unwritableOutputFails() {
    if (!QFileInfo::exists(QStringLiteral("/dev/full"))) {
        QSKIP("no /dev/full on this system");
    }
    QProcess p;
    p.setStandardOutputFile(QStringLiteral("/dev/full"));
    p.start(QStringLiteral(TALLY_BIN),
            {QStringLiteral("export"), example("llama-3-70b-15t-1024-h100.json"),
             QStringLiteral("--to"), QStringLiteral("megatron")});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 1);
    QVERIFY2(p.readAllStandardError().contains("standard output"), "no reason given");
    // -o naming a folder, or a file in a folder that does not exist: the path the user gave
    // and the reason, not the temporary file's name or "Success".
    QTemporaryDir dir;
    const Run folder =
        run_tally({QStringLiteral("export"), example("llama-3-70b-15t-1024-h100.json"),
                   QStringLiteral("--to"), QStringLiteral("megatron"), QStringLiteral("-o"),
                   dir.path() + QStringLiteral("/")});
    QCOMPARE(folder.exit_code, 1);
    QVERIFY2(folder.err.contains("it is a folder"), folder.err.constData());
    const QString missing = dir.filePath(QStringLiteral("no/such/run.sh"));
    const Run nowhere = run_tally(
        {QStringLiteral("export"), example("llama-3-70b-15t-1024-h100.json"),
         QStringLiteral("--to"), QStringLiteral("megatron"), QStringLiteral("-o"), missing});
    QCOMPARE(nowhere.exit_code, 1);
    QVERIFY2(nowhere.err.contains(missing.toUtf8() + ": No such file or directory"),
             nowhere.err.constData());
    QVERIFY(!nowhere.err.contains("tally-tmp"));
}

// -o onto what is there already: a launch script keeps its execute bit, and a symbolic link stays a
// link while the file it names is written (the file is replaced whole, by rename, either way).
void TestCliLaunch::outputKeepsWhatIsThere() {
    QTemporaryDir dir;
    const QString script = dir.filePath(QStringLiteral("run.sh"));
    QFile old(script);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("echo old\n");
    old.close();
    QVERIFY(QFile::setPermissions(script, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                              QFile::ReadGroup | QFile::ExeGroup));
    const QStringList args{QStringLiteral("export"), example("llama-3-70b-15t-1024-h100.json"),
                           QStringLiteral("--to"), QStringLiteral("megatron"),
                           QStringLiteral("-o")};
    QCOMPARE(run_tally(args + QStringList{script}).exit_code, 0);
    QVERIFY(QFileInfo(script).permissions() & QFile::ExeOwner);
    QVERIFY(QFileInfo(script).size() > 100);

    const QString target = dir.filePath(QStringLiteral("target.sh"));
    const QString link = dir.filePath(QStringLiteral("link.sh"));
    QFile t(target);
    QVERIFY(t.open(QIODevice::WriteOnly));
    t.close();
    QVERIFY(QFile::link(target, link));
    QCOMPARE(run_tally(args + QStringList{link}).exit_code, 0);
    QVERIFY(QFileInfo(link).isSymLink());
    QVERIFY(QFileInfo(target).size() > 100);
}

#include "tst_cli_launch.moc"
