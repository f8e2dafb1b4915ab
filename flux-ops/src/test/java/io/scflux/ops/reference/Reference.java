/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.reference;

import io.scflux.core.anndata.AnnData;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * The reference outputs of scanpy, decoupler and anndata for synth-3k (copied by
 * {@code flux-ops/src/test/python/extract_expected.py} from {@code shared/fixtures/expected}), and the input they
 * were computed from.
 */
public final class Reference {

    private Reference() {}

    /**
     * The oracle's input: synth-3k counts (3000 x 2000, CSR float32). The int64 copy holds the same values as
     * {@code synth-3k.anndata.h5ad}, which the oracle read.
     */
    public static AnnData counts() {
        return H5ad.read(TestFixtures.path("synth-3k.int64.h5ad"));
    }

    /** A reference {@code .h5ad} (pca, scaled, pseudobulk_sum, pseudobulk_mean), read by scflux. */
    public static AnnData h5ad(String name) {
        return H5ad.read(resource(name + ".h5ad"));
    }

    /** A reference CSV ({@code qc_obs}, {@code hvg_seurat}, ...): first column the row name. */
    public static Table csv(String name) {
        try (InputStream raw = Files.newInputStream(resource(name + ".csv.gz"));
                BufferedReader in =
                        new BufferedReader(new InputStreamReader(new GZIPInputStream(raw), StandardCharsets.UTF_8))) {
            String[] header = in.readLine().split(",", -1);
            List<String[]> rows = new ArrayList<>();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] cells = line.split(",", -1);
                if (cells.length != header.length) {
                    throw new IllegalStateException(name + ": row of " + cells.length + " cells: " + line);
                }
                rows.add(cells);
            }
            return new Table(name, header, rows);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Path resource(String file) {
        return TestFixtures.resource("/expected/" + file);
    }

    /** A CSV read as strings, with typed column access. */
    public static final class Table {
        private final String name;
        private final Map<String, Integer> columns = new LinkedHashMap<>();
        private final List<String[]> rows;
        private final Map<String, Integer> rowIndex = new HashMap<>();

        Table(String name, String[] header, List<String[]> rows) {
            this.name = name;
            for (int i = 0; i < header.length; i++) {
                columns.put(header[i], i);
            }
            this.rows = rows;
            for (int r = 0; r < rows.size(); r++) {
                rowIndex.put(rows.get(r)[0], r);
            }
        }

        public int size() {
            return rows.size();
        }

        public List<String> columnNames() {
            return new ArrayList<>(columns.keySet());
        }

        /** Row names (the first column), in file order. */
        public String[] rowNames() {
            return rows.stream().map(r -> r[0]).toArray(String[]::new);
        }

        public int row(String rowName) {
            Integer r = rowIndex.get(rowName);
            if (r == null) {
                throw new IllegalArgumentException(name + ": no row " + rowName);
            }
            return r;
        }

        public String string(int row, String column) {
            Integer c = columns.get(column);
            if (c == null) {
                throw new IllegalArgumentException(name + ": no column " + column + " in " + columns.keySet());
            }
            return rows.get(row)[c];
        }

        /** A float column ({@code NaN} for missing), as the shortest decimal of the float64 value. */
        public double[] doubles(String column) {
            double[] out = new double[rows.size()];
            for (int r = 0; r < out.length; r++) {
                out[r] = Double.parseDouble(string(r, column));
            }
            return out;
        }

        public boolean[] bools(String column) {
            boolean[] out = new boolean[rows.size()];
            for (int r = 0; r < out.length; r++) {
                String v = string(r, column);
                if (!v.equals("True") && !v.equals("False")) {
                    throw new IllegalStateException(name + ": " + column + " row " + r + " is not a bool: " + v);
                }
                out[r] = v.equals("True");
            }
            return out;
        }

        public String[] strings(String column) {
            String[] out = new String[rows.size()];
            for (int r = 0; r < out.length; r++) {
                out[r] = string(r, column);
            }
            return out;
        }
    }
}
