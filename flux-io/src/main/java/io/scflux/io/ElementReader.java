/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.jhdf.api.Group;
import io.jhdf.api.Node;
import io.scflux.core.Settings;
import io.scflux.io.hdf5.ArrayReader;
import io.scflux.io.hdf5.Hdf5;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads any anndata element by its {@code encoding-type}: dicts as nested maps, dataframes as frames, arrays and
 * scalars as dense arrays, categorical and nullable arrays as columns, rec-arrays as maps of fields, and matrices
 * (CSR, CSC) as {@link FileMatrix} left in the file, and anndata's {@code null} (Python's None) as null. Elements written without encoding attributes (anndata < 0.8)
 * are read by their HDF5 shape: a group is a dict (or a matrix when it has {@code h5sparse_format}), a dataset an
 * array.
 */
final class ElementReader {

    /** Dicts nested in one another at most: deeper is refused (3,000 nested groups overflowed the stack). */
    static final int MAX_DEPTH = 64;

    private final Path file;
    private final Settings settings;
    /** The dict groups being read, innermost first: a member that is one of them is a cycle of hard links. */
    private final ArrayDeque<Group> ancestors = new ArrayDeque<>();

    ElementReader(Path file, Settings settings) {
        this.file = file;
        this.settings = settings;
    }

    /** The element at {@code node}: a map, frame, dense array, column, record map or {@link FileMatrix}. */
    Object read(Node node) {
        return Hdf5.guard(node, () -> {
            String encoding = Hdf5.encodingType(node);
            if (encoding == null) {
                return unencoded(node);
            }
            switch (encoding) {
                case "dict":
                    return mapping(node);
                case "dataframe":
                    return FrameReader.read(node);
                case "csr_matrix":
                case "csc_matrix":
                    return matrix(node);
                case "array":
                case "string-array":
                case "numeric-scalar":
                case "string":
                    return ArrayReader.read(node);
                case "rec-array":
                    return ArrayReader.record(node);
                case "null":
                    return null;
                default:
                    if (ColumnReader.isColumnEncoding(encoding)) {
                        return ColumnReader.read(node, false);
                    }
                    throw Hdf5.error(node, "unknown encoding-type '" + encoding + "'");
            }
        });
    }

    /** An element written before anndata 0.8 tagged elements, read by what it is in HDF5. */
    private Object unencoded(Node node) {
        if (node.isGroup()) {
            return Hdf5.hasAttr(node, "h5sparse_format") ? matrix(node) : mapping(node);
        }
        return ArrayReader.isRecord(node) ? ArrayReader.record(node) : ArrayReader.read(node);
    }

    /** The members of a dict group, each read as an element, in the order jhdf lists them (by name, as h5py). */
    Map<String, Object> mapping(Node node) {
        if (!(node instanceof Group group)) {
            throw Hdf5.error(node, "expected a group (a dict), found a dataset");
        }
        for (Group ancestor : ancestors) {
            if (ancestor.getAddress() == group.getAddress()) {
                throw Hdf5.error(
                        node,
                        "is " + Hdf5.path(ancestor) + " again, a group that contains it: a cycle of " + "hard links");
            }
        }
        if (ancestors.size() == MAX_DEPTH) {
            throw Hdf5.error(node, "dicts nested more than " + MAX_DEPTH + " deep");
        }
        ancestors.push(group);
        try {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Node child : Hdf5.guard(node, group::getChildren).values()) {
                out.put(child.getName(), read(Hdf5.resolve(child)));
            }
            return out;
        } finally {
            ancestors.pop();
        }
    }

    /** The matrix at {@code node}, streamed from the file. */
    FileMatrix matrix(Node node) {
        return Hdf5.guard(node, () -> FileMatrices.open(file, node, settings));
    }
}
