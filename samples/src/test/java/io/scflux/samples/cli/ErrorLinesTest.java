/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.scflux.core.InvalidOptionException;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.Frame;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import io.scflux.ops.filter.FilterOptions;
import io.scflux.ops.hvg.HighlyVariableGenesOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The answers of issue 32's third round of hostile testing: every error is one line, with what it quotes of a file
 * escaped; option values the options records refuse are usage errors (exit 2); an input that is no regular file, a
 * step that cannot run on the data (too few genes vary, no cells), a heap too small for the work, each get a sentence
 * that says which file and why. The hostile files are made here, by seeded code.
 */
@Tag("slow")
class ErrorLinesTest {

    @TempDir
    Path tmp;

    /** {@code cells} x {@code genes} counts of a seeded pattern, all {@code constant} when it is positive. */
    private Path counts(String name, int cells, int genes, float constant) {
        CsrMatrix.Builder b = CsrMatrix.builder(genes);
        String[] names = new String[cells];
        String[] types = new String[cells];
        for (int r = 0; r < cells; r++) {
            int[] cols = new int[genes];
            float[] values = new float[genes];
            for (int g = 0; g < genes; g++) {
                cols[g] = g;
                values[g] = constant > 0 ? constant : 1 + (r * 31 + g * 17) % 7;
            }
            b.addRow(cols, values);
            names[r] = "C" + r;
            types[r] = "T" + r % 2;
        }
        Frame obs = new Frame(names);
        obs.put("cell_type", CategoricalColumn.fromValues(types));
        obs.put("sample", CategoricalColumn.fromValues(types));
        String[] vars = new String[genes];
        for (int g = 0; g < genes; g++) {
            vars[g] = "G" + g;
        }
        Path file = tmp.resolve(name);
        H5ad.write(new AnnData(b.build(), obs, new Frame(vars)), file).block();
        return file;
    }

    /** The one {@code scflux: error: } line of {@code c}, asserted to be its only line on stderr. */
    private static String onlyLine(Cli c) {
        List<String> lines = c.err().lines().filter(l -> !l.startsWith("see '")).toList();
        assertEquals(1, lines.size(), c.err());
        assertTrue(lines.get(0).startsWith("scflux: error: "), c.err());
        assertFalse(c.err().contains("looks like a bug"), c.err());
        return lines.get(0);
    }

    static Stream<Arguments> badOptionValues() {
        return Stream.of(
                Arguments.of(List.of("fuzz", "IN", "--replay", "-1"), "--replay must be a case number"),
                Arguments.of(
                        List.of(
                                "pseudobulk",
                                "IN",
                                "--sample-col",
                                "sample",
                                "--groups-col",
                                "cell_type",
                                "--min-cells",
                                "-1",
                                "-o",
                                "OUT"),
                        "min_cells must not be negative, got -1"),
                Arguments.of(List.of("concat", "IN", "IN", "--keys", "a,a", "-o", "OUT"), "keys must be unique"),
                Arguments.of(
                        List.of("hvg", "IN", "--n-top-genes", "0", "-o", "OUT"),
                        "n_top_genes must be at " + "least 1, got 0"),
                Arguments.of(List.of("filter-cells", "IN", "--min-genes", "-1", "-o", "OUT"), "min_genes"));
    }

    @ParameterizedTest
    @MethodSource("badOptionValues")
    void anOptionValueTheOptionsRefuseIsAUsageError(List<String> command, String expected) {
        Path in = counts("in.h5ad", 20, 10, 0);
        Path out = tmp.resolve("out.h5ad");
        Cli c = Cli.run(command.stream()
                .map(a -> a.equals("IN") ? in.toString() : a.equals("OUT") ? out.toString() : a)
                .toArray(String[]::new));
        assertEquals(2, c.exitCode(), c.err());
        assertTrue(onlyLine(c).contains(expected), c.err());
        assertTrue(c.err().contains("see 'scflux " + command.get(0) + " --help'"), c.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void theOptionsRecordsRefuseTheValuesThemselves() {
        assertThrows(InvalidOptionException.class, () -> FilterOptions.minGenes(-1));
        assertThrows(InvalidOptionException.class, () -> FilterOptions.maxCounts(-0.5));
        assertThrows(
                InvalidOptionException.class,
                () -> HighlyVariableGenesOptions.defaults().withNTopGenes(0));
        assertEquals(0, FilterOptions.minGenes(0).threshold());
    }

    @Test
    void anInputThatIsNoRegularFileIsSaidToBeOne() throws Exception {
        Path fifo = tmp.resolve("fifo.h5ad");
        assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "mkfifo");
        for (String in : List.of(fifo.toString(), "/dev/zero")) {
            Cli c = Cli.run("info", in);
            assertEquals(1, c.exitCode(), c.err());
            assertEquals(
                    "scflux: error: " + in + ": is not a regular file (a FIFO, a device or a socket): scflux "
                            + "reads .h5ad and .h5 files",
                    onlyLine(c));
        }
    }

    @Test
    void controlCharactersOfAFileAreEscapedOnTheOneLine() {
        Path counts = counts("counts.h5ad", 6, 4, 0);
        AnnData data = H5ad.read(counts);
        String genome = "\u001b[31mGRCh38\nscflux: error: forged\u007f";
        data.var().put("genome", CategoricalColumn.fromValues(new String[] {genome, genome, genome, genome}));
        Path file = tmp.resolve("filtered_feature_bc_matrix.h5");
        H5ad.writeCellRanger(data, file, WriteOptions.DEFAULT).block();
        Cli c = Cli.run("--genome", "mm10", "info", file.toString());
        assertEquals(1, c.exitCode(), c.err());
        String line = onlyLine(c);
        assertTrue(line.contains("\\x1b[31mGRCh38\\nscflux: error: forged\\x7f"), line);
        assertTrue(line.chars().noneMatch(ch -> ch < 0x20 || ch == 0x7f), line);
    }

    @Test
    void seuratV3OnGenesThatDoNotVarySaysSo() {
        Path in = counts("constant.h5ad", 20, 10, 3);
        Cli c = Cli.run(
                "hvg",
                in.toString(),
                "--flavor",
                "seurat_v3",
                "-o",
                tmp.resolve("out.h5ad").toString());
        assertEquals(1, c.exitCode(), c.err());
        assertTrue(
                onlyLine(c)
                        .startsWith(
                                "scflux: error: " + in + ": /X: seurat_v3: 0 of 10 genes vary across 20 " + "cells"),
                c.err());
    }

    @Test
    void rankGenesGroupsOnNoCellsSaysSo() {
        Path in = tmp.resolve("empty.h5ad");
        Frame obs = new Frame(new String[0]);
        obs.put("cell_type", CategoricalColumn.fromValues(new String[0]));
        H5ad.write(
                        new AnnData(
                                CsrMatrix.builder(5).build(), obs, new Frame(new String[] {"a", "b", "c", "d", "e"})),
                        in)
                .block();
        Cli c = Cli.run(
                "rank-genes-groups",
                in.toString(),
                "--groupby",
                "cell_type",
                "-o",
                tmp.resolve("out.h5ad").toString());
        assertEquals(1, c.exitCode(), c.err());
        assertEquals(
                "scflux: error: " + in + ": /obs: no cells: rank_genes_groups needs at least one group of "
                        + "--groupby cell_type with two cells or more",
                onlyLine(c));
    }

    @Test
    void anEncodingVersionAnndataRefusesIsRefused() throws IOException {
        Python.assumeAnndata();
        Path in = counts("v.h5ad", 6, 4, 0);
        Python.run(
                "import h5py, sys\nwith h5py.File(sys.argv[1], 'r+') as f:\n"
                        + "    f['X'].attrs['encoding-version'] = '9.9.9'\n",
                in.toString());
        Cli c = Cli.run("info", in.toString());
        assertEquals(1, c.exitCode(), c.err());
        assertEquals(
                "scflux: error: " + in + ": /X: unsupported encoding-version 9.9.9 of encoding-type csr_matrix "
                        + "(anndata and scflux read 0.1.0)",
                onlyLine(c));
    }

    @Test
    void aBoolXIsRefusedOnWriteNamingTheFile() throws IOException {
        Python.assumeAnndata();
        Path in = tmp.resolve("bool.h5ad");
        Python.run(
                "import anndata, numpy, scipy.sparse, sys\n"
                        + "x = scipy.sparse.random(8, 5, density=0.4, format='csr', random_state=3) > 0\n"
                        + "anndata.AnnData(x, dtype=bool).write_h5ad(sys.argv[1])\n",
                in.toString());
        Cli c = Cli.run("convert", in.toString(), "-o", tmp.resolve("out.h5ad").toString());
        assertEquals(1, c.exitCode(), c.err());
        String line = onlyLine(c);
        assertTrue(
                line.contains(in + ":/X") && line.contains("holds bool values") && line.contains("numeric dtype"),
                line);
    }

    /** Runs the command line in a JVM of its own with {@code jvm} options; its exit status and stderr. */
    private static Cli child(List<String> jvm, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvm);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Scflux.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the JVM stopped");
        return new Cli(p.exitValue(), "", err);
    }

    @Test
    void workThatCannotFitTheHeapIsRefusedBeforeItStarts() throws Exception {
        Path wide = counts("wide.h5ad", 30, 3000, 0);
        Path out = tmp.resolve("out.h5ad");
        Cli pca =
                child(List.of("-Xmx64m"), "pca", wide.toString(), "--solver", "covariance_eigh", "-o", out.toString());
        assertEquals(1, pca.exitCode(), pca.err());
        assertTrue(onlyLine(pca).contains("pca's covariance_eigh solver over 3000 genes"), pca.err());
        assertTrue(pca.err().contains("refusing it before allocating"), pca.err());
        Cli cache = child(List.of("-Xmx64m"), "--cache-mb", "200", "qc", wide.toString(), "-o", out.toString());
        assertEquals(2, cache.exitCode(), cache.err());
        assertTrue(onlyLine(cache).contains("--cache-mb 200 is more than a"), cache.err());
        Cli threads = child(List.of("-Xmx64m"), "--threads", "64", "qc", wide.toString(), "-o", out.toString());
        assertEquals(2, threads.exitCode(), threads.err());
        assertTrue(onlyLine(threads).contains("--threads 64 would hold about"), threads.err());
        assertTrue(threads.err().contains("SCFLUX_JAVA_OPTS=-Xmx"), threads.err());
        assertFalse(Files.exists(out));
        // without --threads, a machine of 64 cores runs as many workers as the heap holds
        Cli cores =
                child(List.of("-Xmx64m", "-XX:ActiveProcessorCount=64"), "qc", wide.toString(), "-o", out.toString());
        assertEquals(0, cores.exitCode(), cores.err());
    }

    @Test
    void anOutOfMemoryErrorIsOneLineNamingTheSettings() throws Exception {
        Path wide = counts("wide.h5ad", 30, 3000, 0);
        // past the memory budget's refusal on purpose: the Gram's covariance then meets the heap's end
        Cli c = child(
                List.of("-Xmx64m", "-Dscflux.memory.budget.mb=100000"),
                "--threads",
                "2",
                "pca",
                wide.toString(),
                "--solver",
                "covariance_eigh",
                "-o",
                tmp.resolve("out.h5ad").toString());
        assertEquals(1, c.exitCode(), c.err());
        String line = onlyLine(c);
        assertTrue(line.startsWith("scflux: error: out of memory (Java heap space) in a heap of "), line);
        assertTrue(
                line.contains("SCFLUX_JAVA_OPTS=-Xmx") && line.contains("--cache-mb") && line.contains("--threads"),
                line);
    }

    @Test
    void theLauncherSaysWhyUnderALowLimitOfOpenFiles() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("dist/bin"));
        Files.createDirectories(tmp.resolve("dist/lib"));
        Files.writeString(tmp.resolve("dist/lib/scflux.jar"), "");
        Path launcher = Files.copy(Path.of("src/dist/bin/scflux"), bin.resolve("scflux"));
        ProcessBuilder pb = new ProcessBuilder(
                        "/bin/sh", "-c", "ulimit -n 13 && exec /bin/sh \"$0\" --version", launcher.toString())
                .redirectErrorStream(true);
        pb.environment().remove("JAVA_HOME");
        pb.environment().put("PATH", tmp.resolve("none").toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(1, p.exitValue(), out);
        assertTrue(out.startsWith("scflux: no Java found"), out);
    }
}
