/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.StagedSource;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.DenseMatrix;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.NullableColumn;
import io.scflux.core.anndata.Raw;
import io.scflux.core.anndata.RecordArray;
import io.scflux.io.hdf5.Hdf5;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes the in-memory elements of an {@link AnnData} with the encodings anndata writes (dataframe, categorical,
 * nullable-*, string-array, array, scalars, rec-array, dict, raw) and lists its matrices, which {@link MatrixWriter} then
 * streams.
 * Everything runs on {@link NativeHdf5#THREAD}.
 */
final class ElementWriter {

    /**
     * A matrix to stream into the element {@code name} (a csr_matrix, or an array) of the group {@code parent}, and
     * its {@code companions}: dense matrices made block by block from its blocks ({@link StagedSource}s over its
     * source: X_pca over X), written in the same pass.
     */
    record Matrix(String parent, String name, BlockSource source, List<Matrix> companions) {

        Matrix(String parent, String name, BlockSource source) {
            this(parent, name, source, List.of());
        }

        String path() {
            return NativeHdf5.child(parent, name);
        }
    }

    private final NativeHdf5 file;
    private final List<Matrix> matrices = new ArrayList<>();

    ElementWriter(NativeHdf5 file) {
        this.file = file;
    }

    /**
     * The first part of writing {@code data}: every element but obs and var, and its matrices (X first) for
     * streaming. obs and var follow ({@link #anndataFrames}) once the matrices are streamed, so that the columns a read
     * of X fills on its way ({@link io.scflux.core.anndata.PendingColumns}) can be put by then; a bad element among the
     * others still fails before any matrix is streamed.
     */
    List<Matrix> anndata(AnnData data) {
        try (NativeHdf5.Group root = file.root()) {
            encode(root, "anndata", "0.1.0");
            if (data.x() != null) {
                matrix(root, "X", data.x());
            }
            dict(root, "obsm", data.obsm());
            dict(root, "varm", data.varm());
            dict(root, "obsp", data.obsp());
            dict(root, "varp", data.varp());
            dict(root, "layers", data.layers());
            dict(root, "uns", data.uns());
            if (data.raw() != null) {
                raw(root, data.raw());
            }
        }
        return withCompanions(matrices);
    }

    /**
     * {@code all} with each dense matrix staged over an earlier one's source (the same object) made that one's
     * companion: one read of the source writes both.
     */
    static List<Matrix> withCompanions(List<Matrix> all) {
        List<Matrix> out = new ArrayList<>();
        for (Matrix m : all) {
            int base = -1;
            if (m.source() instanceof StagedSource s && s.isDense()) {
                for (int i = 0; i < out.size() && base < 0; i++) {
                    if (out.get(i).source() == s.base()) {
                        base = i;
                    }
                }
            }
            if (base < 0) {
                out.add(m);
            } else {
                Matrix b = out.get(base);
                List<Matrix> companions = new ArrayList<>(b.companions());
                companions.add(m);
                out.set(base, new Matrix(b.parent(), b.name(), b.source(), List.copyOf(companions)));
            }
        }
        return out;
    }

    /** The rest of {@code data} after {@link #anndata} and its matrices: obs and var. */
    void anndataFrames(AnnData data) {
        try (NativeHdf5.Group root = file.root()) {
            dataframe(root, "obs", data.obs());
            dataframe(root, "var", data.var());
        }
    }

    /** anndata's {@code encoding-type} and {@code encoding-version} attributes. */
    static void encode(NativeHdf5.Node node, String type, String version) {
        node.attr(Hdf5.ENCODING_TYPE, type);
        node.attr(Hdf5.ENCODING_VERSION, version);
    }

    private void raw(NativeHdf5.Group root, Raw raw) {
        try (NativeHdf5.Group g = root.group("raw")) {
            encode(g, "raw", "0.1.0");
            matrix(g, "X", raw.x());
            dataframe(g, "var", raw.var());
            dict(g, "varm", raw.varm());
        }
    }

    /**
     * A matrix element: streamed from its blocks after the metadata, or, for a {@link DenseMatrix} (in memory, small
     * by nature), written now as the 2-D float64 array it holds: its blocks carry float32, which would round means.
     */
    private void matrix(NativeHdf5.Group parent, String name, BlockSource source) {
        if (source instanceof DenseMatrix d) {
            array(parent, name, d.values());
            return;
        }
        NativeHdf5.child(parent.path, name);
        matrices.add(new Matrix(parent.path, name, source));
    }

    /**
     * One value of a dict ({@code uns}, {@code obsm}...): a {@link DenseArray}, a {@link RecordArray}, a nested
     * {@link Map}, a {@link Frame}, a sparse {@link BlockSource} or a {@link Column} (a categorical in uns); Java
     * strings, numbers, booleans and primitive arrays are taken as arrays.
     */
    private void element(NativeHdf5.Group parent, String name, Object value) {
        if (value instanceof DenseArray a) {
            array(parent, name, a);
        } else if (value instanceof RecordArray r) {
            try (NativeHdf5.Dataset d = parent.records(name, r)) {
                encode(d, "rec-array", "0.2.0");
            }
        } else if (value instanceof Map<?, ?> m) {
            dict(parent, name, m);
        } else if (value instanceof Frame f) {
            dataframe(parent, name, f);
        } else if (value instanceof BlockSource s) {
            matrix(parent, name, s);
        } else if (value instanceof Column c) {
            column(parent, name, c);
        } else if (value instanceof String || value instanceof Number || value instanceof Boolean) {
            array(parent, name, DenseArray.scalar(value));
        } else if (value != null && value.getClass().isArray()) {
            array(parent, name, DenseArray.of(value));
        } else {
            throw new IllegalArgumentException(NativeHdf5.child(parent.path, name) + ": cannot write "
                    + (value == null ? "null" : "a " + value.getClass().getName())
                    + " (expected a DenseArray, RecordArray, Map, Frame, BlockSource, Column, scalar or primitive "
                    + "array)");
        }
    }

    /**
     * A dict group. Entries whose value is null (Python's None, as in scanpy's {@code uns["log1p"]["base"]}) are left
     * out: anndata >= 0.11 would write an element of encoding-type {@code null}, which anndata before 0.11 cannot
     * read, while scanpy reads such keys with {@code .get}, so an absent key means the same to it.
     */
    private void dict(NativeHdf5.Group parent, String name, Map<?, ?> entries) {
        try (NativeHdf5.Group g = parent.group(name)) {
            encode(g, "dict", "0.1.0");
            for (Map.Entry<?, ?> e : entries.entrySet()) {
                if (!(e.getKey() instanceof String key)) {
                    throw new IllegalArgumentException(g.path + ": keys must be strings, found " + e.getKey());
                }
                if (e.getValue() != null) {
                    element(g, key, e.getValue());
                }
            }
        }
    }

    private void dataframe(NativeHdf5.Group parent, String name, Frame frame) {
        String path = NativeHdf5.child(parent.path, name);
        String indexKey = frame.indexName() == null ? "_index" : frame.indexName();
        for (String reserved : new String[] {"_index", indexKey}) {
            if (frame.has(reserved)) {
                throw new IllegalArgumentException(path + ": column '" + reserved
                        + "' has the name the index is stored under; rename the column or the index");
            }
        }
        try (NativeHdf5.Group g = parent.group(name)) {
            encode(g, "dataframe", "0.2.0");
            g.attr("_index", indexKey);
            String[] columns = frame.columns().keySet().toArray(String[]::new);
            // h5py stores anndata's empty column list as an empty float64 array; anndata reads either.
            g.attr("column-order", columns.length == 0 ? DenseArray.of(new double[0]) : DenseArray.of(columns));
            array(g, indexKey, DenseArray.of(frame.names()));
            for (Map.Entry<String, Column> c : frame.columns().entrySet()) {
                column(g, c.getKey(), c.getValue());
            }
        }
    }

    private void column(NativeHdf5.Group frame, String name, Column column) {
        if (column instanceof ArrayColumn a && a.isComputed()) {
            // written a slice at a time: a million cells' computed column never becomes one 8 MB array
            try (NativeHdf5.Dataset d = frame.dataset(name, a.dtype(), a.size(), a::getDouble)) {
                encode(d, "array", "0.2.0");
            }
        } else if (column instanceof ArrayColumn a) {
            array(frame, name, a.values());
        } else if (column instanceof CategoricalColumn c) {
            try (NativeHdf5.Group g = frame.group(name)) {
                encode(g, "categorical", "0.2.0");
                g.attr("ordered", DenseArray.scalar(c.ordered()));
                // the library narrows the int32 codes to the pandas code type on the way
                dataset(g, "codes", c.codeType(), c.codeArray(), "array");
                array(g, "categories", c.categories());
            }
        } else {
            NullableColumn n = (NullableColumn) column;
            try (NativeHdf5.Group g = frame.group(name)) {
                encode(g, n.encoding(), "0.1.0");
                if (n.values().dtype() == DType.STRING) {
                    g.attr("na-value", "NA");
                }
                array(g, "values", n.values());
                array(g, "mask", DenseArray.of(n.mask()));
            }
        }
    }

    /** An array, string array, numeric scalar or string scalar, as anndata encodes each. */
    private void array(NativeHdf5.Group parent, String name, DenseArray a) {
        boolean str = a.dtype() == DType.STRING;
        String encoding = a.isScalar() ? (str ? "string" : "numeric-scalar") : (str ? "string-array" : "array");
        dataset(parent, name, a.dtype(), a, encoding);
    }

    private static void dataset(NativeHdf5.Group parent, String name, DType fileType, DenseArray a, String encoding) {
        try (NativeHdf5.Dataset d = parent.dataset(name, fileType, a)) {
            encode(d, encoding, "0.2.0");
        }
    }
}
