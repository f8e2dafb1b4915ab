/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.Group;
import io.jhdf.api.Node;
import io.jhdf.exceptions.HdfException;
import io.scflux.core.DType;
import io.scflux.core.ScfluxFormatException;
import io.scflux.core.Settings;
import io.scflux.io.hdf5.ArrayReader;
import io.scflux.io.hdf5.CsrArrays;
import io.scflux.io.hdf5.CsrStore;
import io.scflux.io.hdf5.Hdf5;
import io.scflux.io.hdf5.ReadStats;
import io.scflux.io.hdf5.Storage;
import io.scflux.io.hdf5.StoredArray;
import io.scflux.io.safety.FileStamp;
import io.scflux.io.transposed.TransposedStore;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Opens the matrix elements of an {@code .h5ad} ({@code csr_matrix} and {@code csc_matrix} groups, 2-D dense
 * datasets, and the pre-0.7 {@code h5sparse_format} groups) and Cell Ranger's matrix groups as {@link FileMatrix}
 * sources: the layout is read once here; blocks are then read by each subscription through its own handle.
 */
final class FileMatrices {

    private FileMatrices() {}

    /** The matrix at {@code element} of {@code file}, a CSC one copied by rows under {@code settings}. */
    static FileMatrix open(Path file, String element, Settings settings) {
        if (!Files.isRegularFile(file)) {
            throw new ScfluxFormatException(file.toString(), element, "no such file");
        }
        try (HdfFile hdf = Hdf5.open(file)) {
            Node node;
            try {
                node = hdf.getByPath(element);
            } catch (HdfException e) {
                throw new ScfluxFormatException(file.toString(), element, "no such element", e);
            }
            return open(file, node, settings);
        } catch (ScfluxFormatException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ScfluxFormatException(
                    file.toString(), element, "not a readable HDF5 file (" + e.getMessage() + ")", e);
        } catch (OutOfMemoryError e) {
            throw Hdf5.declaredTooLarge(file.toString(), element, e);
        }
    }

    /**
     * The matrix stored at {@code node} of an open file. The returned matrix does not keep {@code node}'s file
     * open: each reader opens its own handle, and fails if the file has changed meanwhile.
     */
    static FileMatrix open(Path file, Node node, Settings settings) {
        FileStamp stamp = FileStamp.of(file);
        try {
            if (node instanceof Dataset ds) {
                return dense(file, ds, stamp, settings);
            }
            return sparse(file, (Group) node, stamp, settings);
        } catch (ScfluxFormatException e) {
            throw e;
        } catch (HdfException
                | ClassCastException
                | IllegalArgumentException
                | IllegalStateException
                | IndexOutOfBoundsException
                | NullPointerException e) {
            throw Hdf5.error(node, "unreadable matrix: " + e, e);
        }
    }

    private static FileMatrix dense(Path file, Dataset ds, FileStamp stamp, Settings settings) {
        String enc = Hdf5.encodingType(ds);
        if (enc != null && !enc.equals("array")) {
            throw Hdf5.error(ds, "expected a matrix (encoding-type array, csr_matrix or csc_matrix), found " + enc);
        }
        StoredArray array = StoredArray.of(ds, stamp.size());
        long[] dims = array.dims();
        if (dims.length != 2) {
            throw Hdf5.error(ds, "expected a 2-D array, found shape " + Arrays.toString(dims));
        }
        int cols = columns(ds, dims[1]);
        MatrixInfo info = new MatrixInfo(
                "array",
                array.dtype(),
                dims[0],
                cols,
                dims[0] * cols,
                null,
                null,
                array.compression(),
                array.isChunked());
        String element = Hdf5.path(ds);
        return new DenseFileMatrix(file, element, info, array, stamp, shipped(file, element, settings));
    }

    private static FileMatrix sparse(Path file, Group group, FileStamp stamp, Settings settings) {
        String enc = Hdf5.encodingType(group);
        if (enc == null && isCellRanger(group)) {
            return cellRanger(file, group, stamp, settings);
        }
        long[] shape;
        if (enc == null && Hdf5.stringAttr(group, "h5sparse_format") != null) {
            enc = Hdf5.stringAttr(group, "h5sparse_format") + "_matrix";
            shape = Hdf5.longArrayAttr(group, "h5sparse_shape");
        } else {
            shape = Hdf5.longArrayAttr(group, "shape");
        }
        if (enc == null) {
            throw Hdf5.error(
                    group,
                    "expected a matrix: a group with encoding-type csr_matrix or csc_matrix, found "
                            + "a group without encoding-type");
        }
        if (!enc.equals("csr_matrix") && !enc.equals("csc_matrix")) {
            throw Hdf5.error(group, "expected encoding-type csr_matrix or csc_matrix, found " + enc);
        }
        if (shape == null || shape.length != 2 || shape[0] < 0 || shape[1] < 0) {
            throw Hdf5.error(
                    group,
                    "expected a 'shape' attribute of two non-negative integers, found "
                            + (shape == null ? "none" : Arrays.toString(shape)));
        }
        StoredArray indptr = member(group, "indptr", stamp);
        StoredArray indices = member(group, "indices", stamp);
        StoredArray data = member(group, "data", stamp);
        boolean csr = enc.equals("csr_matrix");
        long major = csr ? shape[0] : shape[1];
        int minor = columns(group, csr ? shape[1] : shape[0]);
        CsrArrays arrays;
        try (Storage s = Storage.open(file, stamp, new ReadStats())) {
            arrays = CsrArrays.of(indptr, indices, data, major, minor, s);
        }
        MatrixInfo info = new MatrixInfo(
                enc,
                data.dtype(),
                shape[0],
                columns(group, shape[1]),
                arrays.nnz(),
                indptr.dtype(),
                indices.dtype(),
                data.compression(),
                data.isChunked());
        String element = Hdf5.path(group);
        if (csr) {
            CsrStore store = new CsrStore(file, stamp, arrays);
            return new SparseFileMatrix(file, element, info, stamp, stats -> store, shipped(file, element, settings));
        }
        return new SparseFileMatrix(
                file,
                element,
                info,
                stamp,
                stats -> TransposedStore.ensure(
                        file, element, stamp, arrays, stats, TransposedStore.DEFAULT_BUCKET_ENTRIES, settings),
                shipped(file, element, settings));
    }

    /** A Cell Ranger matrix group: no attributes, a {@code shape} dataset, {@code barcodes} and the CSC arrays. */
    private static boolean isCellRanger(Group group) {
        Node shape = Hdf5.childOrNull(group, "shape");
        return shape instanceof Dataset
                && Hdf5.childOrNull(group, "barcodes") != null
                && !Hdf5.hasAttr(group, "h5sparse_format");
    }

    /**
     * A Cell Ranger matrix: features x barcodes compressed by barcode, which is barcodes x features CSR, read as it
     * is stored. Its {@code shape} is a dataset of two integers; int32 counts are declared float32, as scanpy reads
     * them.
     */
    private static FileMatrix cellRanger(Path file, Group group, FileStamp stamp, Settings settings) {
        Node shapeNode = Hdf5.child(group, "shape");
        io.scflux.core.anndata.DenseArray shapeArray = ArrayReader.vector(shapeNode);
        if (shapeArray.length() != 2 || !shapeArray.dtype().isInteger()) {
            throw Hdf5.error(
                    shapeNode,
                    "expected two integers (features, barcodes), found " + shapeArray.length() + " "
                            + shapeArray.dtype() + " values");
        }
        long features = (long) shapeArray.getDouble(0);
        long barcodes = (long) shapeArray.getDouble(1);
        if (features < 0 || barcodes < 0) {
            throw Hdf5.error(shapeNode, "expected a non-negative shape, found [" + features + ", " + barcodes + "]");
        }
        StoredArray indptr = member(group, "indptr", stamp);
        StoredArray indices = member(group, "indices", stamp);
        StoredArray data = member(group, "data", stamp);
        int cols = columns(shapeNode, features);
        CsrArrays arrays;
        try (Storage s = Storage.open(file, stamp, new ReadStats())) {
            arrays = CsrArrays.of(indptr, indices, data, barcodes, cols, s);
        }
        MatrixInfo info = new MatrixInfo(
                "cellranger",
                data.dtype(),
                barcodes,
                cols,
                arrays.nnz(),
                indptr.dtype(),
                indices.dtype(),
                data.compression(),
                data.isChunked());
        DType declared = data.dtype() == DType.INT32 ? DType.FLOAT32 : data.dtype();
        CsrStore store = new CsrStore(file, stamp, arrays);
        String element = Hdf5.path(group);
        return new SparseFileMatrix(
                file, element, info, declared, stamp, stats -> store, shipped(file, element, settings));
    }

    private static StoredArray member(Group group, String name, FileStamp stamp) {
        Node n = Hdf5.childOrNull(group, name);
        if (n == null) {
            throw Hdf5.error(group, "missing dataset '" + name + "' of the sparse matrix");
        }
        if (!(n instanceof Dataset ds)) {
            throw Hdf5.error(n, "expected a dataset, found a group");
        }
        return StoredArray.of(ds, stamp.size());
    }

    private static int columns(Node node, long n) {
        if (n > Integer.MAX_VALUE - 8) {
            throw Hdf5.error(node, "expected fewer than 2^31 columns, found " + n);
        }
        return (int) n;
    }

    /** What a matrix of {@code file}'s {@code element}, opened under {@code settings}, ships as to another JVM. */
    static Serializable shipped(Path file, String element, Settings settings) {
        return new Shipped(file, element, settings);
    }

    /**
     * A file matrix as it crosses to another JVM: its file's absolute path, its element and the settings it was opened
     * under, opened again there with them (which must see the same path). Handed to each matrix made here, so that
     * the matrices do not name their opener.
     */
    private record Shipped(String file, String element, String cacheDir, long cacheMaxBytes, boolean fileLocking)
            implements Serializable {

        Shipped(Path file, String element, Settings settings) {
            this(
                    file.toAbsolutePath().toString(),
                    element,
                    settings.cacheDir().toString(),
                    settings.cacheMaxBytes(),
                    settings.fileLocking());
        }

        private Object readResolve() {
            return open(Path.of(file), element, new Settings(Path.of(cacheDir), cacheMaxBytes, 0, fileLocking));
        }
    }
}
