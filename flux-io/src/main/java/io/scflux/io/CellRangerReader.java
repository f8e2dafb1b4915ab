/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.jhdf.HdfFile;
import io.jhdf.api.Group;
import io.jhdf.api.Node;
import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.Settings;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.Selection;
import io.scflux.io.hdf5.ArrayReader;
import io.scflux.io.hdf5.Hdf5;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;

/**
 * Reads 10x Genomics' HDF5 feature-barcode matrix as scanpy's {@code read_10x_h5} does, then
 * {@code var_names_make_unique}: the Cell Ranger 3+ layout ({@code /matrix} with {@code features/}) and the Cell Ranger
 * 2 one ({@code /<genome>} with {@code genes}, {@code gene_names}). The matrix (features x barcodes, compressed by
 * barcode) is already cells x genes CSR: it streams in row blocks from the file like an {@code .h5ad}'s X.
 */
final class CellRangerReader {

    /** Cell Ranger 3's group of the matrix. */
    static final String V3_GROUP = "matrix";

    private static final String GEX = "Gene Expression";

    /** Feature datasets scanpy does not turn into var columns (or turns into the index or gene_ids). */
    private static final Set<String> NOT_COLUMNS =
            Set.of("_all_tag_keys", "feature_type", "id", "name", "pattern", "read", "sequence", "gene_id");

    private CellRangerReader() {}

    /**
     * True when {@code root} is a Cell Ranger file rather than an AnnData one: no {@code obs} and either a
     * {@code matrix} group (3+) or a group holding {@code barcodes} and {@code gene_names} (2).
     */
    static boolean isCellRanger(Group root) {
        if (Hdf5.childOrNull(root, "obs") != null || Hdf5.encodingType(root) != null) {
            return false;
        }
        Node matrix = Hdf5.childOrNull(root, V3_GROUP);
        if (matrix != null && matrix.isGroup()) {
            return true;
        }
        return !legacyGenomes(root).isEmpty();
    }

    /** The container of a Cell Ranger {@code file}: names and var columns in memory, the counts left in the file. */
    static AnnData read(Path file, HdfFile root, CellRangerOptions options, Settings settings) {
        Node matrix = Hdf5.childOrNull(root, V3_GROUP);
        return matrix != null && matrix.isGroup()
                ? v3(file, (Group) matrix, options, settings)
                : legacy(file, root, options, settings);
    }

    private static AnnData v3(Path file, Group matrix, CellRangerOptions options, Settings settings) {
        Node features = Hdf5.child(matrix, "features");
        String[] names = ArrayReader.strings(Hdf5.child(features, "name"));
        String[] types = ArrayReader.strings(Hdf5.child(features, "feature_type"));
        Map<String, String[]> columns = new LinkedHashMap<>();
        Node geneId = Hdf5.childOrNull(features, "gene_id");
        if (geneId == null) {
            columns.put("gene_ids", ArrayReader.strings(Hdf5.child(features, "id")));
        } else { // a probe-barcode matrix: ids are probes, gene_id the genes
            columns.put("gene_ids", ArrayReader.strings(geneId));
            columns.put("probe_ids", ArrayReader.strings(Hdf5.child(features, "id")));
        }
        columns.put("feature_types", types);
        // h5py lists a group's members by name, and scanpy adds the other columns in that order
        List<String> others = new ArrayList<>(
                new java.util.TreeSet<>(((Group) features).getChildren().keySet()));
        Map<String, boolean[]> flags = new LinkedHashMap<>();
        for (String name : others) {
            Node n = Hdf5.child(features, name);
            if (NOT_COLUMNS.contains(name) || n.isGroup()) {
                continue;
            }
            DenseArray a = ArrayReader.vector(n);
            if (a.length() != names.length) {
                throw Hdf5.error(n, "expected " + names.length + " entries (one per feature), found " + a.length());
            }
            if (a.dtype() == DType.BOOL) {
                flags.put(name, (boolean[]) a.data());
            } else {
                columns.put(name, a.dtype() == DType.STRING ? a.strings() : asStrings(a));
            }
        }
        for (Map.Entry<String, String[]> c : columns.entrySet()) {
            if (c.getValue().length != names.length) {
                throw Hdf5.error(
                        features,
                        "expected " + names.length + " " + c.getKey() + " (one per feature), " + "found "
                                + c.getValue().length);
            }
        }
        int[] keep = keep(
                matrix,
                names.length,
                options.genome() == null ? null : columns.get("genome"),
                options.genome(),
                options.gexOnly() ? types : null);
        return container(file, matrix, names, columns, flags, keep, settings);
    }

    private static AnnData legacy(Path file, Group root, CellRangerOptions options, Settings settings) {
        List<String> genomes = legacyGenomes(root);
        String genome = options.genome();
        if (genome == null) {
            if (genomes.size() > 1) {
                throw Hdf5.error(
                        root,
                        "a Cell Ranger 2 file of several genomes " + genomes + ": choose one " + "(--genome NAME)");
            }
            genome = genomes.get(0);
        } else if (!genomes.contains(genome)) {
            throw Hdf5.error(root, "no genome '" + genome + "' in this Cell Ranger 2 file (genomes: " + genomes + ")");
        }
        Group group = (Group) Hdf5.child(root, genome);
        String[] names = ArrayReader.strings(Hdf5.child(group, "gene_names"));
        Map<String, String[]> columns = new LinkedHashMap<>();
        columns.put("gene_ids", ArrayReader.strings(Hdf5.child(group, "genes")));
        if (columns.get("gene_ids").length != names.length) {
            throw Hdf5.error(
                    Hdf5.child(group, "genes"),
                    "expected " + names.length + " gene ids (one per gene " + "name), found "
                            + columns.get("gene_ids").length);
        }
        return container(file, group, names, columns, Map.of(), null, settings);
    }

    /** The groups of the root that hold a Cell Ranger 2 matrix, in file order. */
    private static List<String> legacyGenomes(Group root) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Node> e : root.getChildren().entrySet()) {
            Node n = Hdf5.resolve(e.getValue());
            if (n.isGroup()
                    && Hdf5.childOrNull(n, "barcodes") != null
                    && Hdf5.childOrNull(n, "gene_names") != null
                    && Hdf5.childOrNull(n, "indptr") != null) {
                out.add(e.getKey());
            }
        }
        return out;
    }

    /**
     * The features kept: of {@code genome} when it is given, then of type Gene Expression when {@code types} is
     * given (scanpy filters in that order); null when all are.
     */
    private static int @Nullable [] keep(
            Node matrix, int n, String @Nullable [] genomes, @Nullable String genome, String @Nullable [] types) {
        if (genome != null) {
            if (genomes == null) {
                throw Hdf5.error(matrix, "no features/genome to select genome '" + genome + "' by");
            }
            if (!List.of(genomes).contains(genome)) {
                throw Hdf5.error(
                        matrix,
                        "no features of genome '" + genome + "' (genomes: " + new java.util.TreeSet<>(List.of(genomes))
                                + ")");
            }
        }
        int[] keep = IntStream.range(0, n)
                .filter(i -> genome == null || genomes == null || genome.equals(genomes[i]))
                .filter(i -> types == null || GEX.equals(types[i]))
                .toArray();
        return keep.length == n ? null : keep;
    }

    /**
     * The container: obs named by the barcodes, var by the kept features' names made unique, the string columns as
     * anndata writes them (categorical when values repeat, its {@code strings_to_categoricals}), X the counts of the
     * kept features.
     */
    private static AnnData container(
            Path file,
            Group group,
            String[] allNames,
            Map<String, String[]> columns,
            Map<String, boolean[]> flags,
            int @Nullable [] keep,
            Settings settings) {
        ArrayReader.Names barcodes = ArrayReader.names(Hdf5.child(group, "barcodes"));
        BlockSource counts = FileMatrices.open(file, group, settings);
        if (counts.nRows() != barcodes.size() || counts.nCols() != allNames.length) {
            throw Hdf5.error(
                    group,
                    "shape says " + counts.nCols() + " features x " + counts.nRows() + " barcodes, " + "found "
                            + allNames.length + " features and " + barcodes.size() + " barcodes");
        }
        Frame obs = new Frame(barcodes.size(), barcodes.read(), null);
        BlockSource x = keep == null
                ? counts
                : new AnnData(counts, obs, Frame.ofRange(allNames.length))
                        .subset(Selection.all(), Selection.of(keep))
                        .x();
        Frame var = new Frame(UniqueNames.of(take(allNames, keep)), null);
        columns.forEach((name, values) -> var.put(name, stringColumn(take(values, keep))));
        flags.forEach((name, values) -> var.put(name, new ArrayColumn(DenseArray.of(take(values, keep)))));
        return new AnnData(x, obs, var);
    }

    /** A string column as anndata writes one: categorical when fewer distinct values than entries, else strings. */
    private static Column stringColumn(String[] values) {
        Set<String> distinct = new HashSet<>();
        for (String v : values) {
            distinct.add(v);
        }
        return distinct.size() < values.length
                ? CategoricalColumn.fromValues(values)
                : new ArrayColumn(DenseArray.of(values));
    }

    private static String[] asStrings(DenseArray a) {
        String[] out = new String[a.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = String.valueOf(a.get(i));
        }
        return out;
    }

    private static String[] take(String[] a, int @Nullable [] keep) {
        return keep == null ? a : IntStream.of(keep).mapToObj(i -> a[i]).toArray(String[]::new);
    }

    private static boolean[] take(boolean[] a, int @Nullable [] keep) {
        if (keep == null) {
            return a;
        }
        boolean[] out = new boolean[keep.length];
        for (int i = 0; i < keep.length; i++) {
            out[i] = a[keep[i]];
        }
        return out;
    }
}
