/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.Frame;
import io.scflux.core.test.Logs;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * X written in its own dtype with its own values by every command that does not change it: the values float32 would
 * change (int32 2147483647 and 16777217, uint32 4294967295, int64 past 2^53, uint64 2^64-1, float64 0.1 and 1e-40)
 * come back bit for bit in X and in a layer, read through the HDF5 library itself. Before, each write rounded X to float32 and stored that
 * in X's dtype: 2147483647 became -2147483648, 0.1 became 0.10000000149011612.
 */
@Tag("slow")
class ExactValuesTest {

    /** A stored dtype and values float32 does not hold, cycled over X's entries. */
    enum Stored {
        INT32("int32", new long[] {2147483647L, 16777217L, 1, 2147483646L, 5}, null),
        UINT32("uint32", new long[] {4294967295L, 16777217L, 3, 4000000001L}, null),
        INT64("int64", new long[] {9007199254740993L, 16777217L, 7, 1L << 62}, null),
        UINT64("uint64", new long[] {-1L, 16777217L, 2, 9007199254740993L}, null),
        FLOAT64("float64", null, new double[] {0.1, 1e-40, 1.0 / 3, 12345.678901234567, 2.5});

        final String numpy;
        final long[] longs;
        final double[] doubles;

        Stored(String numpy, long[] longs, double[] doubles) {
            this.numpy = numpy;
            this.longs = longs;
            this.doubles = doubles;
        }
    }

    /** A command that leaves X's values as they are, and which entries of the input it keeps, in order. */
    enum Command {
        CONVERT(false, "convert"),
        QC(false, "qc", "--percent-top", "2"),
        QC_IN_PLACE(true, "qc", "--percent-top", "2"),
        HVG_IN_PLACE(true, "hvg", "--flavor", "seurat_v3", "--n-top-genes", "5"),
        FILTER_CELLS(false, "filter-cells", "--min-genes", "2"),
        FILTER_GENES(false, "filter-genes", "--min-cells", "5"),
        CONCAT(false, "concat");

        final boolean inPlace;
        final List<String> args;

        Command(boolean inPlace, String... args) {
            this.inPlace = inPlace;
            this.args = List.of(args);
        }
    }

    /** The values of X and of a layer, which a write keeps alike. */
    private static final List<String> DATA = List.of("/X/data", "/layers/counts/data");

    private static final int CELLS = 40;
    private static final int GENES = 30;

    @TempDir
    Path tmp;

    static Stream<Arguments> cases() {
        return Arrays.stream(Stored.values())
                .flatMap(s -> Arrays.stream(Command.values()).map(c -> Arguments.of(s, c)));
    }

    /** The genes of cell {@code r}: three, except every tenth cell, which has one (filter-cells drops it). */
    private static int[] genes(int r) {
        if (r % 10 == 9) {
            return new int[] {r % GENES};
        }
        int[] g = {r % GENES, (r + 11) % GENES, (r + 23) % GENES};
        Arrays.sort(g);
        return g;
    }

    /** The input: X of {@link #genes} per cell, its data replaced with {@code stored}'s values in {@code stored}'s dtype. */
    private Path input(Stored stored, String name) {
        CsrMatrix.Builder b = CsrMatrix.builder(GENES);
        String[] cells = new String[CELLS];
        for (int r = 0; r < CELLS; r++) {
            int[] g = genes(r);
            float[] v = new float[g.length];
            Arrays.fill(v, 1f);
            b.addRow(g, v);
            cells[r] = "cell" + r;
        }
        String[] names = new String[GENES];
        for (int g = 0; g < GENES; g++) {
            names[g] = "gene" + g;
        }
        Path file = tmp.resolve(name);
        CsrMatrix x = b.build();
        AnnData a = new AnnData(x, new Frame(cells), new Frame(names));
        a.putLayer("counts", x);
        H5ad.write(a, file).block();
        int n = entries().size();
        for (String data : DATA) {
            if (stored.doubles != null) {
                StoredData.replace(file, data, stored.numpy, null, cycle(stored.doubles, n));
            } else {
                StoredData.replace(file, data, stored.numpy, cycle(stored.longs, n), null);
            }
        }
        return file;
    }

    /** Every entry of the input as {cell, gene}, in the order X stores them. */
    private static List<int[]> entries() {
        List<int[]> out = new ArrayList<>();
        for (int r = 0; r < CELLS; r++) {
            for (int g : genes(r)) {
                out.add(new int[] {r, g});
            }
        }
        return out;
    }

    /** The positions of the input's entries that {@code command}'s output holds, in its order. */
    private static List<Integer> kept(Command command) {
        List<int[]> all = entries();
        int[] cellsOfGene = new int[GENES];
        all.forEach(e -> cellsOfGene[e[1]]++);
        List<Integer> kept = new ArrayList<>();
        for (int k = 0; k < all.size(); k++) {
            int[] e = all.get(k);
            boolean keep = switch (command) {
                case FILTER_CELLS -> genes(e[0]).length >= 2;
                case FILTER_GENES -> cellsOfGene[e[1]] >= 5;
                default -> true;
            };
            if (keep) {
                kept.add(k);
            }
        }
        if (command == Command.CONCAT) {
            int n = all.size();
            for (int k = 0; k < n; k++) {
                kept.add(k);
            }
        }
        return kept;
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("cases")
    void xKeepsItsDtypeAndValues(Stored stored, Command command) throws Exception {
        Path in = input(stored, "in.h5ad");
        Path out = command.inPlace ? in : tmp.resolve("out.h5ad");
        List<String> args = new ArrayList<>(List.of("--threads", "2", command.args.get(0), in.toString()));
        if (command == Command.CONCAT) {
            args.add(input(stored, "second.h5ad").toString());
        }
        args.addAll(command.args.subList(1, command.args.size()));
        args.addAll(command.inPlace ? List.of("--in-place") : List.of("-o", out.toString()));
        Cli c = quietly(stored, args);
        assertEquals(0, c.exitCode(), command + ": " + c.err());
        List<Integer> kept = kept(command);
        for (String data : DATA) {
            assertEquals(stored.numpy, StoredData.dtype(out, data), data + " keeps its dtype");
            if (stored.doubles != null) {
                double[] expected = kept.stream()
                        .mapToDouble(k -> stored.doubles[k % stored.doubles.length])
                        .toArray();
                assertArrayEquals(expected, StoredData.doubles(out, data), data + ": float64 values, bit for bit");
            } else {
                long[] expected = kept.stream()
                        .mapToLong(k -> stored.longs[k % stored.longs.length])
                        .toArray();
                assertArrayEquals(expected, StoredData.longs(out, data), data + ": " + stored.numpy + " values");
            }
        }
        assertFalse(c.err().contains("Exception"), c.err());
        assertTrue(Files.exists(out));
    }

    /**
     * A value the output's dtype cannot hold is refused, not wrapped: int64 counts past 2^31 written as a Cell Ranger
     * file (whose counts are int32) fail naming the entry, and nothing is written.
     */
    @Test
    void aValueTheOutputCannotHoldIsRefused() {
        Path in = input(Stored.INT64, "wide.h5ad");
        Path out = tmp.resolve("counts.h5");
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> H5ad.open(in)
                        .flatMap(a -> H5ad.writeCellRanger(a, out, WriteOptions.DEFAULT))
                        .block());
        assertTrue(
                e.getMessage().contains(": the value 9007199254740993 at row 0, column 0 cannot be stored as int32"),
                e.getMessage());
        assertFalse(Files.exists(out), "nothing written");
    }

    static Stream<Arguments> cscCases() {
        return Arrays.stream(Stored.values())
                .flatMap(s -> Stream.of(Command.CONVERT, Command.QC).map(c -> Arguments.of(s, c)));
    }

    /**
     * A CSC input (read through its row-major copy in the cache folder) keeps its values too: the copy stores them in
     * the input's own dtype where float32 would change them. The expected order is the transposition's, worked out
     * here from the input's own indptr and indices.
     */
    @ParameterizedTest(name = "{1} on CSC {0}")
    @MethodSource("cscCases")
    void aCscInputKeepsItsDtypeAndValues(Stored stored, Command command) throws Exception {
        Path in = tmp.resolve("csc.h5ad");
        Files.copy(Cli.FIXTURES.resolve("synth-3k.csc-gzip.h5ad"), in);
        long[] indptr = StoredData.longs(in, "/X/indptr");
        long[] rows = StoredData.longs(in, "/X/indices");
        int n = rows.length;
        if (stored.doubles != null) {
            StoredData.replace(in, "/X/data", stored.numpy, null, cycle(stored.doubles, n));
        } else {
            StoredData.replace(in, "/X/data", stored.numpy, cycle(stored.longs, n), null);
        }
        // the CSR order of the entries: by row, then by column
        List<long[]> order = new ArrayList<>();
        for (int c = 0; c + 1 < indptr.length; c++) {
            for (long k = indptr[c]; k < indptr[c + 1]; k++) {
                order.add(new long[] {rows[(int) k], c, k});
            }
        }
        order.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        Path out = tmp.resolve("out.h5ad");
        List<String> args = new ArrayList<>(List.of("--threads", "2", command.args.get(0), in.toString()));
        args.addAll(command.args.subList(1, command.args.size()));
        args.addAll(List.of("-o", out.toString()));
        Cli c = quietly(stored, args);
        assertEquals(0, c.exitCode(), command + ": " + c.err());
        assertEquals(stored.numpy, StoredData.dtype(out, "/X/data"), "X keeps its dtype");
        if (stored.doubles != null) {
            double[] expected = order.stream()
                    .mapToDouble(e -> stored.doubles[(int) (e[2] % stored.doubles.length)])
                    .toArray();
            assertArrayEquals(expected, StoredData.doubles(out, "/X/data"), "float64 values, bit for bit");
        } else {
            long[] expected = order.stream()
                    .mapToLong(e -> stored.longs[(int) (e[2] % stored.longs.length)])
                    .toArray();
            assertArrayEquals(expected, StoredData.longs(out, "/X/data"), stored.numpy + " values");
        }
    }

    /**
     * Runs the command line on {@code args}, its log caught: QC warns, as scanpy does, that float64 fractions are not
     * counts, and says nothing else.
     */
    private static Cli quietly(Stored stored, List<String> args) {
        Cli[] c = new Cli[1];
        List<String> logged = Logs.during(() -> c[0] = Cli.run(args.toArray(String[]::new)));
        for (String line : logged) {
            assertTrue(
                    stored == Stored.FLOAT64
                            && line.contains(
                                    "`calculate_qc_metrics` expects raw count data, but " + "non-integers were found"),
                    args + " logged: " + line);
        }
        return c[0];
    }

    private static double[] cycle(double[] values, int n) {
        double[] out = new double[n];
        for (int k = 0; k < n; k++) {
            out[k] = values[k % values.length];
        }
        return out;
    }

    private static long[] cycle(long[] values, int n) {
        long[] out = new long[n];
        for (int k = 0; k < n; k++) {
            out[k] = values[k % values.length];
        }
        return out;
    }
}
