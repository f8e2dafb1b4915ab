/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.scflux.core.Execution;
import io.scflux.core.PlanTarget;
import io.scflux.core.test.CacheDir;
import io.scflux.samples.report.Progress;
import io.scflux.samples.synth.SynthSpec;
import io.scflux.samples.synth.SyntheticCounts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@Tag("slow")
class ScfluxCommandTest {

    /** Written by anndata (3000 x 2000, CSC, gzip); obs batch is categorical there. */
    private static final String CSC =
            Cli.FIXTURES.resolve("synth-3k.csc-gzip.h5ad").toString();
    /** h5py copy of make_synth's output with int64 indptr and indices (gzip + shuffle). */
    private static final String INT64 =
            Cli.FIXTURES.resolve("synth-3k.int64.h5ad").toString();

    // Reference values, read with anndata 0.8 / h5py from the fixtures above.
    private static final long FIXTURE_NNZ = 1205649;
    private static final double FIXTURE_SUM = 2953988.0;

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void helpListsEveryCommandAndTheGlobalOptions() {
        Cli help = Cli.run("--help");
        assertEquals(0, help.exitCode());
        for (String s : List.of("synth", "info", "bench", "--threads", "--chunk-nnz", "--progress")) {
            assertTrue(help.out().contains(s), s + " in\n" + help.out());
        }
        for (String[] sub : List.of(new String[] {"synth", "--help"}, new String[] {"info", "--help"}, new String[] {
            "bench", "read", "--help"
        })) {
            Cli c = Cli.run(sub);
            assertEquals(0, c.exitCode());
            assertTrue(c.out().contains("--threads") && c.out().contains("--progress"), c.out());
        }
    }

    @Test
    void argumentsThatStartWithACommandGetThatCommandOnly() {
        assertEquals(
                List.of("info"),
                List.copyOf(Scflux.commandLine(new String[] {"info", CSC})
                        .getSubcommands()
                        .keySet()));
        Set<String> all = Scflux.commandLine().getSubcommands().keySet();
        assertTrue(all.size() > 20 && all.contains("preprocess"), all.toString());
        for (String[] args : List.of(
                new String[] {"--threads", "2", "info", CSC},
                new String[] {"--help"},
                new String[] {"inf", CSC},
                new String[0])) {
            assertEquals(all, Scflux.commandLine(args).getSubcommands().keySet(), String.join(" ", args));
        }
        // a global option after the command, inherited by it, and a mistyped command's suggestion
        Cli info = Cli.run("info", CSC, "--threads", "2");
        assertEquals(0, info.exitCode(), info.err());
        Cli typo = Cli.run("inf", CSC);
        assertEquals(2, typo.exitCode());
        assertTrue(typo.err().contains("did you mean info"), typo.err());
    }

    /**
     * Every command's help renders as written: picocli formats descriptions with {@code String.format}, and a bare
     * percent sign makes it print a warning on stderr and show the raw text.
     */
    @Test
    void everyCommandsHelpRendersWithoutAFormatWarning() {
        PrintStream stderr = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        List<String> rendered = new ArrayList<>();
        try {
            System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
            ArrayDeque<CommandLine> todo = new ArrayDeque<>(List.of(Scflux.commandLine()));
            while (!todo.isEmpty()) {
                CommandLine c = todo.pop();
                String usage = c.getUsageMessage();
                assertFalse(usage.contains("%n"), c.getCommandName() + " help shows a raw format:\n" + usage);
                rendered.add(c.getCommandName());
                todo.addAll(c.getSubcommands().values());
            }
        } finally {
            System.setErr(stderr);
        }
        assertTrue(
                rendered.containsAll(List.of("scflux", "pipeline", "rank-genes-groups", "plot")), rendered.toString());
        assertEquals("", warnings.toString(StandardCharsets.UTF_8));
    }

    @Test
    void usageErrorsExitTwo() {
        assertEquals(2, Cli.run().exitCode());
        assertEquals(2, Cli.run("bench").exitCode());
        assertEquals(2, Cli.run("frobnicate").exitCode());
        String out = tmp.resolve("x.h5ad").toString();
        Cli missing = Cli.run("synth", "--genes", "100", "-o", out);
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().contains("--cells"), missing.err());
        Cli fewGenes = Cli.run("synth", "--cells", "10", "--genes", "13", "-o", out);
        assertEquals(2, fewGenes.exitCode());
        assertTrue(fewGenes.err().contains("genes must be more than the 13 mitochondrial genes"), fewGenes.err());
        assertEquals(
                2,
                Cli.run("synth", "--cells", "10", "--genes", "100", "--nnz-per-cell", "51", "-o", out)
                        .exitCode());
        assertEquals(
                2,
                Cli.run("synth", "--cells", "10", "--genes", "100", "--compression", "zip", "-o", out)
                        .exitCode());
        Cli threads = Cli.run("--threads", "0", "synth", "--cells", "10", "--genes", "100", "-o", out);
        assertEquals(2, threads.exitCode());
        assertTrue(threads.err().contains("--threads must be at least 1"), threads.err());
        assertEquals(2, Cli.run("info", CSC, "--chunk-nnz", "0").exitCode());
        assertFalse(Files.exists(tmp.resolve("x.h5ad")), "nothing written after a usage error");
    }

    /** A usage error is one line saying what is wrong, then where the usage is: never the usage itself. */
    @Test
    void aUsageErrorIsOneLineAndWhereTheHelpIs() {
        String in = CSC;
        String out = tmp.resolve("x.h5ad").toString();
        Map<List<String>, String> cases = new LinkedHashMap<>();
        cases.put(List.of("qc"), "scflux: error: Missing required parameter: 'IN'|see 'scflux qc --help'");
        cases.put(
                List.of("hvg", in, "-o", out, "--n-top-genes", "abc"),
                "scflux: error: Invalid value for option '--n-top-genes': 'abc' is not an int|see 'scflux hvg --help'");
        cases.put(
                List.of("qc", in, "-o", out, "--bogus"),
                "scflux: error: Unknown option: '--bogus'|" + "see 'scflux qc --help'");
        cases.put(
                List.of("--verbose", "--quiet", "qc", in, "-o", out),
                "scflux: error: --verbose and --quiet " + "contradict each other: give one|see 'scflux --help'");
        cases.forEach((args, expected) -> {
            Cli c = Cli.run(args.toArray(String[]::new));
            assertEquals(2, c.exitCode(), args + ": " + c.err());
            assertEquals(expected, String.join("|", c.err().strip().lines().toList()), args.toString());
            assertFalse(c.err().contains("Usage:") || c.out().contains("Usage:"), c.err());
        });
        assertFalse(Files.exists(tmp.resolve("x.h5ad")));
    }

    /** Where scanpy is silent but a user is surprised, one warning line; none with --quiet. */
    @Test
    void surprisesAreWarnedOfAndQuietSilencesThem() {
        String in = INT64;
        String out = tmp.resolve("x.h5ad").toString();
        Cli noGene = Cli.run("qc", in, "-o", out, "--qc-var", "mt=mt-");
        assertEquals(0, noGene.exitCode(), noGene.err());
        assertTrue(
                noGene.err()
                        .contains("scflux: warning: qc variable 'mt' marks no gene: total_counts_mt and "
                                + "pct_counts_mt are 0 for every cell"),
                noGene.err());
        Cli many = Cli.run("hvg", in, "-o", out, "--n-top-genes", "5000", "--flavor", "seurat_v3");
        assertEquals(0, many.exitCode(), many.err());
        assertTrue(
                many.err()
                        .contains("scflux: warning: n_top_genes=5000 is more than the 2000 genes: every gene "
                                + "is marked highly variable"),
                many.err());
        String csv = tmp.resolve("table.csv").toString();
        Cli table = Cli.run("log1p", in, "-o", csv);
        assertEquals(0, table.exitCode(), table.err());
        assertTrue(
                table.err()
                        .contains("scflux: warning: -o " + csv + " names a .csv file, but scflux writes an "
                                + ".h5ad (HDF5) there"),
                table.err());
        Cli quiet = Cli.run("--quiet", "qc", in, "-o", out, "--qc-var", "mt=mt-");
        assertEquals(0, quiet.exitCode(), quiet.err());
        assertEquals("", quiet.err());
    }

    /** The row-major copies of CSC matrices are listed with their folder and removed by {@code cache clear}. */
    @Test
    void cacheListsAndClearsTheCopiesOfCscMatrices() throws IOException {
        Path dir = tmp.resolve("cache");
        try (CacheDir ignored = CacheDir.at(dir)) {
            assertEquals(0, Cli.run("info", "--json", CSC).exitCode());
            Cli list = Cli.run("cache");
            assertEquals(0, list.exitCode(), list.err());
            assertTrue(list.out().startsWith(dir + ": 1 copy of CSC matrices, "), list.out());
            try (var files = Files.list(dir)) {
                assertEquals(
                        1,
                        files.filter(p -> p.getFileName().toString().endsWith(".csr"))
                                .count());
            }
            Cli clear = Cli.run("cache", "clear");
            assertEquals(0, clear.exitCode(), clear.err());
            assertTrue(clear.out().startsWith("removed 1 copy of CSC matrices"), clear.out());
            assertTrue(Cli.run("cache", "list")
                    .out()
                    .startsWith(dir + ": 0 copies of CSC matrices, 0 bytes (bound: " + String.format("%,d", 64L << 30)
                            + " bytes)"));
            Cli bad = Cli.run("cache", "flush");
            assertEquals(2, bad.exitCode());
            assertTrue(bad.err().startsWith("scflux: error: cache takes list or clear, got 'flush'"), bad.err());
        }
    }

    /**
     * A CSC input's row-major copy changed in the cache folder (1,000 bytes of its values, as the hostile test did)
     * is refused in one line naming the copy, the chunk and the input, exit 1, then built again by the next run.
     */
    @Test
    void aTamperedCopyOfACscInputIsRefusedThenRebuilt() throws IOException {
        Path dir = tmp.resolve("cache-tampered");
        try (CacheDir ignored = CacheDir.at(dir)) {
            String out = tmp.resolve("qc-csc.h5ad").toString();
            Cli first = Cli.run("qc", CSC, "-o", out);
            assertEquals(0, first.exitCode(), first.err());
            Path copy;
            try (var files = Files.list(dir)) {
                copy = files.filter(p -> p.getFileName().toString().endsWith(".csr"))
                        .findFirst()
                        .orElseThrow();
            }
            long size = Files.size(copy);
            java.util.Random random = new java.util.Random(32);
            try (var ch = java.nio.channels.FileChannel.open(
                    copy, java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
                for (int i = 0; i < 1000; i++) {
                    // within the values: the second half of the copy, before its checksums
                    long at = size / 2 + 4096 + random.nextInt((int) (size / 2 - 16384));
                    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
                    ch.read(b, at);
                    b.put(0, (byte) (b.get(0) ^ 0x40)).clear();
                    ch.write(b, at);
                }
            }
            Cli tampered = Cli.run("qc", CSC, "-o", out);
            assertEquals(1, tampered.exitCode(), tampered.err());
            assertEquals(1, tampered.err().lines().count(), tampered.err());
            assertTrue(
                    tampered.err()
                            .matches("scflux: error: " + Pattern.quote(copy.toString()) + ": data: chunk \\d+ "
                                    + "\\(bytes \\d+\\.\\.\\d+\\) does not match its CRC32C checksum: this row-major copy of "
                                    + Pattern.quote(CSC)
                                    + ":/X changed after scflux wrote it; it was removed, and the next read of "
                                    + "the input builds it again\\s*"),
                    tampered.err());
            Cli again = Cli.run("qc", CSC, "-o", out);
            assertEquals(0, again.exitCode(), again.err());
            assertTrue(Files.exists(copy), "built again");
        }
    }

    /**
     * {@code cache clear} also removes what killed runs left in the cache folder (named with their pid), keeping a
     * live run's; a cache folder others may write is refused in one line, by {@code cache} as by every run.
     */
    @Test
    void cacheClearRemovesTheLeftoversOfKilledRunsAndRefusesAFolderOthersMayWrite() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("cache-left"));
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        Process done = new ProcessBuilder("true").start();
        done.waitFor();
        Path killed = Files.writeString(dir.resolve(".wilcoxon.scflux-" + done.pid() + "-9a.tmp"), "600 MB, once");
        Path running = Files.writeString(
                dir.resolve(".spill.scflux-" + ProcessHandle.current().pid() + "-1.tmp"), "being written");
        // as scflux named them before the names held a pid
        Path earlier = Files.writeString(dir.resolve(".tmp-wilcoxon-4821.part"), "600 MB, long ago");
        try (CacheDir ignored = CacheDir.at(dir)) {
            Cli clear = Cli.run("cache", "clear");
            assertEquals(0, clear.exitCode(), clear.err());
            assertEquals(
                    "removed 0 copies of CSC matrices (0 bytes) from " + dir + ", and 2 unfinished files of "
                            + "killed runs",
                    clear.out().trim());
            assertFalse(Files.exists(killed));
            assertFalse(Files.exists(earlier));
            assertTrue(Files.exists(running), "a live run's spill stays");

            Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
            Cli refused = Cli.run("cache", "clear");
            assertEquals(1, refused.exitCode(), refused.err());
            assertEquals(
                    "scflux: error: " + dir + ": the cache folder may be written by others (mode rwxrwxrwx): "
                            + "scflux reads back what it keeps there as your data; chmod go-w it, or set SCFLUX_CACHE_DIR to "
                            + "a folder only you can write",
                    refused.err().trim());
            assertTrue(Files.exists(running), "nothing removed from a refused folder");
        }
    }

    /** A column the command line names and the data lack is the same usage error in every command. */
    @Test
    void aMissingObsColumnIsExitTwoInEveryCommand() {
        String in = Cli.FIXTURES.resolve("synth-3k-b.h5ad").toString();
        String out = tmp.resolve("x.h5ad").toString();
        for (List<String> args : List.of(
                List.of("hvg", in, "-o", out, "--batch-key", "nope"),
                List.of("pseudobulk", in, "-o", out, "--sample-col", "nope", "--groups-col", "cell_type"),
                List.of("qc", in, "-o", out, "--qc-var", "nope"))) {
            Cli c = Cli.run(args.toArray(String[]::new));
            assertEquals(2, c.exitCode(), args + ": " + c.err());
            assertTrue(c.err().startsWith("scflux: error: ") && c.err().contains("nope"), c.err());
            assertFalse(c.err().contains("looks like a bug"), c.err());
        }
    }

    @Test
    void aMissingFileOrFolderIsOneLine() {
        String missing = tmp.resolve("missing.h5ad").toString();
        for (String[] args : List.of(new String[] {"info", missing}, new String[] {"bench", "read", missing})) {
            Cli c = Cli.run(args);
            assertEquals(1, c.exitCode());
            assertEquals(
                    "scflux: error: " + missing + ": no such file\n", c.err().replace("\r\n", "\n"));
        }
        Cli dir = Cli.run("info", tmp.toString());
        assertEquals(1, dir.exitCode());
        assertEquals("scflux: error: " + tmp + ": is a directory\n", dir.err().replace("\r\n", "\n"));
        // a folder as the output is a usage error, refused before anything is written (FileGuard)
        Cli dirOut = Cli.run("synth", "--cells", "10", "--genes", "100", "-o", tmp.toString());
        assertEquals(2, dirOut.exitCode(), dirOut.err());
        assertTrue(
                dirOut.err().startsWith("scflux: error: -o " + tmp + " is a folder, not a file to write"),
                dirOut.err());
        Cli noFolder = Cli.run(
                "synth",
                "--cells",
                "10",
                "--genes",
                "100",
                "-o",
                tmp.resolve("no/x.h5ad").toString());
        assertEquals(1, noFolder.exitCode());
        assertTrue(noFolder.err().startsWith("scflux: error: " + tmp.resolve("no/x.h5ad")), noFolder.err());
        assertEquals(1, noFolder.err().lines().count(), noFolder.err());
    }

    @Test
    void aDeclaredSizeBeyondTheMemoryBudgetIsOneLineAndExitOne() {
        Cli c = Cli.run("info", Cli.FIXTURES.resolve("huge-obsm.h5ad").toString());
        assertEquals(1, c.exitCode());
        String err = c.err().replace("\r\n", "\n");
        assertTrue(
                err.startsWith("scflux: error: ")
                        && err.contains("huge-obsm.h5ad: /obsm/X_huge: ")
                        && err.contains("memory budget"),
                err);
        assertEquals(1, err.lines().count(), "one line, no stack trace:\n" + err);
    }

    @Test
    void aFileThatIsNotHdf5IsOneLineAndExitOne() throws IOException {
        Path text = Files.writeString(tmp.resolve("notes.h5ad"), "these are not the cells you are looking for\n");
        Cli c = Cli.run("info", text.toString());
        assertEquals(1, c.exitCode());
        String err = c.err().replace("\r\n", "\n");
        assertTrue(err.startsWith("scflux: error: ") && err.contains("notes.h5ad"), err);
        assertEquals(1, err.lines().count(), "one line, no stack trace:\n" + err);

        Cli debug = Cli.run("--debug", "info", text.toString());
        assertEquals(1, debug.exitCode());
        assertTrue(debug.err().lines().count() > 1 && debug.err().contains("\tat "), "--debug adds the trace");
    }

    @Test
    void infoPrintsTheLayoutLikeAnndatasRepr() {
        Cli c = Cli.run("info", CSC);
        assertEquals(0, c.exitCode(), c.err());
        String out = c.out();
        assertTrue(out.startsWith("AnnData object with n_obs x n_vars = 3000 x 2000\n"), out);
        assertTrue(out.contains("X: csc_matrix float32, nnz " + FIXTURE_NNZ + ", indptr int32, indices int32"), out);
        assertTrue(out.contains("obs: 'sample' category(6), 'cell_type' category(8), 'batch' category(2)\n"), out);
        assertTrue(out.contains("var: 'gene_ids' object, 'feature_types' category(1)\n"), out);
        assertFalse(out.contains("obsm") || out.contains("layers") || out.contains("uns"), "empty parts are left out");

        String int64 = Cli.run("info", INT64).out();
        assertTrue(
                int64.contains("X: csr_matrix float32, nnz " + FIXTURE_NNZ + ", indptr int64, indices int64"), int64);
        assertTrue(int64.contains("'batch' object"), int64);

        String dense = Cli.run("info", Cli.FIXTURES.resolve("x-dense-lzf.h5ad").toString())
                .out();
        assertTrue(dense.contains("X: array float32, shape (100, 2000), compression lzf"), dense);
        assertFalse(dense.contains("nnz"), "a dense array has no stored-entry count: " + dense);
    }

    @Test
    void infoJsonIsOneObjectWithTheSumOfX() throws IOException {
        Cli c = Cli.run("info", "--json", CSC);
        assertEquals(0, c.exitCode(), c.err());
        assertEquals(1, c.out().strip().lines().count());
        JsonNode json = JSON.readTree(c.out());
        assertEquals(
                List.of(
                        "n_obs", "n_vars", "x", "obs", "var", "obsm", "varm", "layers", "obsp", "varp", "uns", "raw",
                        "x_sum"),
                names(json));
        assertEquals(3000, json.get("n_obs").asLong());
        assertEquals(2000, json.get("n_vars").asLong());
        JsonNode x = json.get("x");
        assertEquals(
                List.of("encoding", "dtype", "nnz", "indptr_dtype", "indices_dtype", "compression", "chunked"),
                names(x));
        assertEquals(
                List.of("csc_matrix", "float32", Long.toString(FIXTURE_NNZ), "int32", "int32"),
                List.of(
                        x.get("encoding").asText(),
                        x.get("dtype").asText(),
                        x.get("nnz").asText(),
                        x.get("indptr_dtype").asText(),
                        x.get("indices_dtype").asText()));
        // compared as Jackson writes the parsed nodes again: in order, whatever the spacing of the output
        assertEquals(
                "{\"sample\":\"category(6)\",\"cell_type\":\"category(8)\",\"batch\":\"category(2)\"}",
                json.get("obs").toString());
        assertEquals(
                "{\"gene_ids\":\"object\",\"feature_types\":\"category(1)\"}",
                json.get("var").toString());
        for (String keys : List.of("obsm", "varm", "layers", "obsp", "varp", "uns")) {
            assertEquals("[]", json.get(keys).toString(), keys);
        }
        assertTrue(json.get("raw").isNull(), json.toString());
        assertEquals(FIXTURE_SUM, json.get("x_sum").asDouble());
    }

    @Test
    void theSumHasTheSameBitsForAnyThreadCount() throws IOException {
        double one =
                xSum(Cli.run("--chunk-nnz", "50000", "info", "--json", INT64).out());
        double four = xSum(Cli.run("info", "--json", INT64, "--threads", "4", "--chunk-nnz", "50000")
                .out());
        assertEquals(FIXTURE_SUM, one);
        assertEquals(Double.doubleToRawLongBits(one), Double.doubleToRawLongBits(four));
    }

    @Test
    void infoJsonAgreesWithAnndata() throws IOException {
        Python.assumeAnndata();
        String json = Cli.run("info", "--json", INT64).out();
        String script = String.join(
                "\n",
                "import sys, json, anndata, h5py, numpy as np",
                "r = json.loads(sys.argv[2])",
                "a = anndata.read_h5ad(sys.argv[1])",
                "assert (r['n_obs'], r['n_vars']) == a.shape, r",
                "with h5py.File(sys.argv[1], 'r') as f:",
                "    x = f['X']",
                "    assert r['x']['encoding'] == x.attrs['encoding-type']",
                "    assert r['x']['nnz'] == x['data'].shape[0]",
                "    assert r['x']['dtype'] == str(x['data'].dtype)",
                "    assert r['x']['indptr_dtype'] == str(x['indptr'].dtype)",
                "    assert r['x']['indices_dtype'] == str(x['indices'].dtype)",
                "    assert r['x']['compression'].startswith(x['data'].compression), r['x']",
                "    assert r['x_sum'] == float(x['data'][:].astype(np.float64).sum())",
                "def kind(s):",
                "    return f'category({len(s.cat.categories)})' if s.dtype.name == 'category' else s.dtype.name",
                "assert r['obs'] == {c: kind(a.obs[c]) for c in a.obs.columns}, r['obs']",
                "assert list(r['obs']) == list(a.obs.columns)",
                "assert r['var'] == {c: kind(a.var[c]) for c in a.var.columns}, r['var']",
                "assert r['uns'] == list(a.uns.keys()) and r['layers'] == list(a.layers.keys())",
                "print('ok')");
        assertEquals("ok", Python.run(script, INT64, json).strip());
    }

    @Test
    void benchReadReportsThroughputAsOneJsonLine() throws IOException {
        Cli c = Cli.run("bench", "read", INT64, "--repeat", "2", "--threads", "2", "--chunk-nnz", "100000");
        assertEquals(0, c.exitCode(), c.err());
        assertEquals(1, c.out().strip().lines().count());
        JsonNode json = JSON.readTree(c.out());
        assertEquals("scflux", json.get("tool").asText());
        assertEquals(2, json.get("threads").asInt());
        assertEquals(FIXTURE_NNZ, json.get("nnz").asLong());
        assertEquals(FIXTURE_SUM, json.get("x_sum").asDouble());
        assertTrue(json.get("nnz_per_s").asDouble() > 0, json.toString());
        assertTrue(json.get("mb_per_s").asDouble() > 0, json.toString());
        assertEquals(2, json.get("seconds").size(), json.toString());
    }

    @Test
    void progressGoesToStderrAndLeavesStdoutClean() throws IOException {
        Cli c = Cli.run("--progress", "info", "--json", INT64, "--chunk-nnz", "100000");
        assertEquals(0, c.exitCode(), c.err());
        assertEquals(FIXTURE_SUM, xSum(c.out()));
        assertTrue(
                Pattern.compile("\\[1 sum] 100% (\\d+)/\\1 blocks [0-9.]+[kM]? rows/s in \\d+:\\d\\d\n$")
                        .matcher(c.err())
                        .find(),
                "ends with the pass, all blocks done, the time taken and a newline: " + c.err());
        assertEquals("0:04", Progress.clock(4.4));
        assertEquals("1:05:09", Progress.clock(3909));
    }

    /** The line: the pass's number and what it computes, share, blocks, rows/s, time left; then time taken. */
    @Test
    void aProgressLineNamesItsPass() {
        assertEquals(
                "[3 hvg] 62% 2,806/4,638 blocks 61k rows/s ETA 0:04",
                Progress.line(new Progress.Report(3, "hvg", 2806, 4638, 398_106, 642_105, 61_000, false)));
        assertEquals(
                "[3 hvg] 100% 4,638/4,638 blocks 1.2M rows/s in 0:01",
                Progress.line(new Progress.Report(3, "hvg", 4638, 4638, 1_200_000, 1_200_000, 1_234_567, true)));
        assertEquals(
                "[1] 100% 0/0 blocks 950 rows/s ETA 0:00",
                Progress.line(new Progress.Report(1, null, 0, 0, 0, 0, 950, false)),
                "a pass no step named; a plan of no rows");
    }

    /** pipeline's passes: QC's (the median target sum needs its totals), HVG's, PCA's covariance, the write. */
    @Test
    void pipelineProgressNamesEachPassInOrder() {
        Cli c = Cli.run(
                "--progress",
                "--chunk-nnz",
                "100000",
                "pipeline",
                INT64,
                "-o",
                tmp.resolve("p.h5ad").toString());
        assertEquals(0, c.exitCode(), c.err());
        List<String> done = Arrays.stream(c.err().split("[\r\n]"))
                .filter(l -> l.contains(" in "))
                .toList();
        assertEquals(
                List.of("[1 qc]", "[2 hvg]", "[3 pca]", "[4 write]"),
                done.stream().map(l -> l.substring(0, l.indexOf(']') + 1)).toList(),
                c.err());
        assertTrue(done.stream().allMatch(l -> l.matches("\\[\\d \\w+] 100% (\\d+)/\\1 blocks .*")), c.err());
    }

    @Test
    void synthWritesAFileThatInfoReadsBack() throws IOException {
        Path out = tmp.resolve("synth.h5ad");
        Cli c = Cli.run(
                "synth",
                "--cells",
                "500",
                "--genes",
                "300",
                "--nnz-per-cell",
                "30",
                "--donors",
                "3",
                "--cell-types",
                "4",
                "--seed",
                "5",
                "-o",
                out.toString(),
                "--chunk-nnz",
                "2000",
                "--threads",
                "2");
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(c.out().startsWith("wrote " + out), c.out());
        JsonNode json = JSON.readTree(Cli.run("info", "--json", out.toString()).out());
        assertEquals(500, json.get("n_obs").asLong());
        assertEquals(300, json.get("n_vars").asLong());
        assertEquals(
                "{\"sample\":\"category(3)\",\"cell_type\":\"category(4)\"}",
                json.get("obs").toString());
        assertEquals("{\"gene_ids\":\"object\"}", json.get("var").toString());
        SyntheticCounts expected = new SyntheticCounts(new SynthSpec(500, 300, 30, 3, 4, 5));
        Totals totals = Totals.of(expected, expected.plan(PlanTarget.ofChunkNnz(2000)), Execution.sequential());
        assertEquals(totals.nnz(), json.get("x").get("nnz").asLong());
        assertEquals(totals.sum(), json.get("x_sum").asDouble());
    }

    @Test
    void synthOutputReadsInAnndataWithItsNamesAndCategories() throws IOException {
        Python.assumeAnndata();
        Path out = tmp.resolve("synth-gzip.h5ad");
        Cli c = Cli.run(
                "synth",
                "--cells",
                "400",
                "--genes",
                "200",
                "--nnz-per-cell",
                "40",
                "--donors",
                "2",
                "--cell-types",
                "3",
                "--compression",
                "gzip",
                "-o",
                out.toString());
        assertEquals(0, c.exitCode(), c.err());
        String script = String.join(
                "\n",
                "import sys, re, anndata, numpy as np, scipy.sparse as sp",
                "a = anndata.read_h5ad(sys.argv[1])",
                "assert a.shape == (400, 200), a.shape",
                "assert sp.issparse(a.X) and a.X.dtype == np.float32, a.X.dtype",
                "d = a.X.data",
                "assert d.min() >= 1 and np.all(d == np.round(d))",
                "assert 30 < a.X.nnz / 400 < 50, a.X.nnz",
                "assert list(a.obs.columns) == ['sample', 'cell_type']",
                "assert list(a.obs['sample'].cat.categories) == ['D01', 'D02']",
                "assert list(a.obs['cell_type'].cat.categories) == ['T01', 'T02', 'T03']",
                "assert a.obs_names.is_unique and all(re.fullmatch('[ACGT]{16}-1', b) for b in a.obs_names)",
                "mt = [g for g in a.var_names if g.startswith('MT-')]",
                "assert mt == ['MT-ND1', 'MT-ND2', 'MT-CO1', 'MT-CO2', 'MT-ATP8', 'MT-ATP6', 'MT-CO3', 'MT-ND3',"
                        + " 'MT-ND4L', 'MT-ND4', 'MT-ND5', 'MT-ND6', 'MT-CYB'], mt",
                "other = [g for g in a.var_names if not g.startswith('MT-')]",
                "assert other == ['GENE%05d' % (i + 1) for i in range(187)], other[:3]",
                "assert list(a.var['gene_ids']) == ['ENSG%011d' % (i + 1) for i in range(200)]",
                "print('ok')");
        assertEquals("ok", Python.run(script, out.toString()).strip());
    }

    /** {@code x_sum} of the JSON object {@code json}. */
    private static double xSum(String json) throws IOException {
        return JSON.readTree(json).get("x_sum").asDouble();
    }

    /** The names of {@code object}'s fields, in order. */
    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
