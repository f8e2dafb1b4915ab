package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.Group;
import io.jhdf.api.Node;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a cluster user does: a standalone master and worker started as their own JVMs from a Spark home of Spark's own
 * jars ({@code flux-spark/spark-home}), then {@code SparkSubmit} of scflux-spark.jar's pipeline. The output has the local
 * engine's bytes in every dataset, also when the executor is killed mid-run; a cluster that cannot run the work (an
 * executor that dies at launch, more memory asked than the worker has) ends in one clear line within the bound.
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkClusterIT {

    private static final Path SPARK_HOME = Path.of(System.getProperty("scflux.spark.home",
            "../flux-spark/spark-home/target/spark-home")).toAbsolutePath().normalize();
    private static final Path JAR = Path.of(System.getProperty("scflux.spark.jar", "target/scflux-spark.jar"))
            .toAbsolutePath();
    private static final String INPUT = Cli.FIXTURES.resolve("synth-3k.int64.h5ad").toAbsolutePath().toString();
    private static final List<String> OPENS = List.of("--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");
    /** The bound of the failure cases: short, so that the test is; a user's default is 120 s. */
    private static final int BOUND_S = 10;

    @TempDir
    static Path tmp;

    private Process master;
    private Process worker;
    private String masterUrl;
    private Path local;

    @BeforeAll
    void startCluster() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        masterUrl = "spark://127.0.0.1:" + port;
        master = spark(tmp.resolve("master.log"), "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                "--port", String.valueOf(port), "--webui-port", "0");
        awaitLine(tmp.resolve("master.log"), "I have been elected leader", master);
        worker = spark(tmp.resolve("worker.log"), "org.apache.spark.deploy.worker.Worker", masterUrl, "--host",
                "127.0.0.1", "--cores", "2", "--memory", "2g", "--webui-port", "0", "--work-dir",
                tmp.resolve("work").toString());
        awaitLine(tmp.resolve("worker.log"), "Successfully registered with master", worker);
        local = tmp.resolve("local.h5ad");
        Cli c = Cli.run(pipeline(local));
        assertEquals(0, c.exitCode(), c.err());
    }

    @AfterAll
    void stopCluster() {
        for (Process p : new Process[] {worker, master}) {
            if (p != null) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
    }

    @Test
    void submittedPipelineWritesTheLocalEnginesBytes() throws Exception {
        Path out = tmp.resolve("cluster.h5ad");
        Run run = submit(out, List.of());
        assertEquals(0, run.exit, run.err);
        assertTrue(run.err.contains("passes over X on spark " + masterUrl), run.err);
        assertSameDatasets(local, out);
    }

    @Test
    void anExecutorKilledMidRunIsReplacedWithTheSameBytes() throws Exception {
        Path out = tmp.resolve("killed.h5ad");
        Process submit = submitProcess(out, List.of(), tmp.resolve("killed.err"));
        ProcessHandle executor = awaitExecutor(submit);
        // once it has run a while: the pipeline's passes are under way
        Thread.sleep(3000);
        assertTrue(submit.isAlive(), "the run is under way");
        assertTrue(executor.destroyForcibly(), "killed the executor");
        executor.onExit().get(30, TimeUnit.SECONDS);
        assertTrue(submit.waitFor(5, TimeUnit.MINUTES), "the run ended");
        String err = Files.readString(tmp.resolve("killed.err"));
        assertEquals(0, submit.exitValue(), err);
        String workerLog = Files.readString(tmp.resolve("worker.log"));
        assertTrue(err.contains("Lost executor") || workerLog.contains("exited with code 137"),
                "Spark saw executor " + executor.pid() + " " + executor.info().commandLine().orElse("") + " go "
                        + "mid-run:\n" + err + "\n" + workerLog);
        assertSameDatasets(local, out);
    }

    @Test
    void anExecutorThatDiesAtLaunchEndsInOneLineWithinTheBound() throws Exception {
        long start = System.nanoTime();
        Run run = submit(tmp.resolve("agent.h5ad"), List.of("--spark-timeout", String.valueOf(BOUND_S), "--conf",
                "spark.executor.extraJavaOptions=-javaagent:/nonexistent/agent.jar"));
        assertClusterError(run, start, "executors keep failing", "Command exited with code 1");
    }

    @Test
    void moreMemoryThanTheClusterHasEndsInOneLineWithinTheBound() throws Exception {
        long start = System.nanoTime();
        Run run = submit(tmp.resolve("memory.h5ad"), List.of("--spark-timeout", String.valueOf(BOUND_S), "--conf",
                "spark.executor.memory=64g"));
        assertClusterError(run, start, "no executor registered in " + BOUND_S + " s",
                "spark.executor.memory=64g");
    }

    private void assertClusterError(Run run, long start, String... says) {
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(1, run.exit, run.err);
        String line = run.err.lines().filter(l -> l.startsWith("scflux: error: ")).findFirst().orElse("");
        for (String s : says) {
            assertTrue(line.contains(s), "'" + s + "' in: " + line + "\n" + run.err);
        }
        assertFalse(run.err.contains("looks like a bug"), run.err);
        assertFalse(run.err.contains("SparkContext was shut down"), run.err);
        // the bound, plus starting the JVM and the context and the first pass's setup: generous on a slow machine
        assertTrue(seconds < BOUND_S + 90, seconds + " s");
        assertFalse(Files.exists(tmp.resolve("agent.h5ad")) || Files.exists(tmp.resolve("memory.h5ad")),
                "no output written");
    }

    private String[] pipeline(Path out, String... more) {
        List<String> args = new ArrayList<>(List.of("--threads", "2", "--chunk-nnz", "5000", "pipeline", INPUT,
                "-o", out.toString(), "--n-top-genes", "300", "--n-comps", "10"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private record Run(int exit, String err) {
    }

    private Run submit(Path out, List<String> options) throws Exception {
        Path err = tmp.resolve(out.getFileName() + ".err");
        Process p = submitProcess(out, options, err);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "spark-submit ended");
        return new Run(p.exitValue(), Files.readString(err));
    }

    /**
     * {@code SparkSubmit} of scflux-spark.jar's pipeline to the cluster, {@code options} after scflux's own (the runs that
     * should succeed keep the default bound: an executor fetching the 40 MB jar on a busy machine takes a while).
     */
    private Process submitProcess(Path out, List<String> options, Path err) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("org.apache.spark.deploy.SparkSubmit", "--master", masterUrl,
                "--conf", "spark.driver.host=127.0.0.1", "--class", Scflux.class.getName(), JAR.toString()));
        cmd.addAll(List.of(pipeline(out, "--engine", "spark")));
        cmd.addAll(options);
        return spark(err, cmd.toArray(String[]::new));
    }

    /** A JVM on the Spark home's jars running {@code args} (a main class and its arguments), output to {@code log}. */
    private Process spark(Path log, String... args) throws IOException {
        // Spark's own temporary folders (spark-UUID) in the test's folder, which JUnit removes: a JVM killed here
        // runs no shutdown hook to remove them from /tmp
        Path scratch = Files.createDirectories(tmp.resolve("java-tmp"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-Djava.io.tmpdir=" + scratch, "-cp", SPARK_HOME.resolve("jars") + File.separator + "*"));
        cmd.addAll(OPENS);
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        env.put("SPARK_HOME", SPARK_HOME.toString());
        env.put("SPARK_LOCAL_DIRS", scratch.toString());
        // what a distribution's bin/load-spark-env.sh sets: the worker's launcher needs it to find jars/
        env.put("SPARK_SCALA_VERSION", "2.13");
        return pb.start();
    }

    private static void awaitLine(Path log, String line, Process p) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < end) {
            if (Files.exists(log) && Files.readString(log).contains(line)) {
                return;
            }
            if (!p.isAlive()) {
                throw new AssertionError("exited before '" + line + "':\n" + Files.readString(log));
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no '" + line + "' in 120 s:\n" + Files.readString(log));
    }

    /** The executor JVM the worker launched for the application {@code submit} runs. */
    private ProcessHandle awaitExecutor(Process submit) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        java.time.Instant submitted = submit.info().startInstant().orElseThrow();
        while (System.nanoTime() < end && submit.isAlive()) {
            var executor = worker.descendants().filter(h -> h.info().commandLine()
                    .map(c -> c.contains("CoarseGrainedExecutorBackend")).orElse(false)
                    && h.info().startInstant().map(t -> t.isAfter(submitted)).orElse(false)).findFirst();
            if (executor.isPresent()) {
                return executor.get();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no executor started");
    }

    /** Every dataset of {@code expected} is in {@code actual} with the same shape, type and values. */
    private static void assertSameDatasets(Path expected, Path actual) {
        try (HdfFile a = new HdfFile(expected); HdfFile b = new HdfFile(actual)) {
            Map<String, Dataset> left = datasets(a);
            Map<String, Dataset> right = datasets(b);
            assertEquals(left.keySet(), right.keySet());
            assertTrue(left.size() > 20, left.keySet().toString());
            for (Map.Entry<String, Dataset> e : left.entrySet()) {
                Dataset x = e.getValue();
                Dataset y = right.get(e.getKey());
                assertEquals(x.getJavaType(), y.getJavaType(), e.getKey());
                assertTrue(java.util.Arrays.equals(x.getDimensions(), y.getDimensions()), e.getKey());
                assertTrue(Objects.deepEquals(box(x.getData()), box(y.getData())), e.getKey());
            }
        }
    }

    /** A float array compared by its bits (NaN equal to NaN), as the bytes are. */
    private static Object box(Object data) {
        if (data instanceof float[] f) {
            int[] bits = new int[f.length];
            for (int i = 0; i < f.length; i++) {
                bits[i] = Float.floatToRawIntBits(f[i]);
            }
            return bits;
        }
        if (data instanceof double[] d) {
            long[] bits = new long[d.length];
            for (int i = 0; i < d.length; i++) {
                bits[i] = Double.doubleToRawLongBits(d[i]);
            }
            return bits;
        }
        return data;
    }

    private static Map<String, Dataset> datasets(Group g) {
        Map<String, Dataset> out = new TreeMap<>();
        for (Node n : g.getChildren().values()) {
            if (n instanceof Dataset d) {
                out.put(d.getPath(), d);
            } else if (n instanceof Group child) {
                out.putAll(datasets(child));
            }
        }
        return out;
    }
}
