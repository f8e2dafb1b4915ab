/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.jhdf.api.Node;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.Frame;
import io.scflux.io.hdf5.ArrayReader;
import io.scflux.io.hdf5.Hdf5;

/**
 * Reads an anndata {@code dataframe} (obs, var, raw/var, frames in obsm and uns) into a {@link Frame}: the index
 * named by the {@code _index} attribute, then the columns in {@code column-order} (jhdf lists members by name).
 * Version 0.2.0 columns carry their encoding; version 0.1.0 (anndata 0.7) columns may be plain datasets.
 */
final class FrameReader {

    private static final String INDEX = "_index";
    private static final String COLUMN_ORDER = "column-order";

    private FrameReader() {}

    static Frame read(Node node) {
        return Hdf5.guard(node, () -> {
            String encoding = Hdf5.encodingType(node);
            if (!"dataframe".equals(encoding)) {
                throw Hdf5.error(
                        node,
                        encoding == null
                                ? "missing attribute 'encoding-type': expected a dataframe"
                                : "expected encoding-type dataframe, found " + encoding);
            }
            String version = Hdf5.stringAttr(node, Hdf5.ENCODING_VERSION);
            boolean legacy = "0.1.0".equals(version);
            if (!legacy && !"0.2.0".equals(version)) {
                throw Hdf5.error(
                        node, "unsupported dataframe encoding-version " + version + " (expected 0.1.0 or " + "0.2.0)");
            }
            String indexKey = Hdf5.stringAttr(node, INDEX);
            if (indexKey == null) {
                throw Hdf5.error(node, "missing attribute '_index' (the name of the index dataset)");
            }
            Node indexNode = Hdf5.childOrNull(node, indexKey);
            if (indexNode == null) {
                throw Hdf5.error(node, "missing index dataset '" + indexKey + "' (named by attribute _index)");
            }
            ArrayReader.Names index = Hdf5.guard(indexNode, () -> ArrayReader.names(indexNode));
            Frame frame = new Frame(index.size(), index.read(), INDEX.equals(indexKey) ? null : indexKey);
            if (!Hdf5.hasAttr(node, COLUMN_ORDER)) {
                throw Hdf5.error(node, "missing attribute 'column-order'");
            }
            for (String name : Hdf5.stringArrayAttr(node, COLUMN_ORDER)) {
                Node columnNode = Hdf5.childOrNull(node, name);
                if (columnNode == null) {
                    throw Hdf5.error(node, "column '" + name + "' named in column-order is missing");
                }
                Column column = legacy ? LegacyLayout.column(node, columnNode) : ColumnReader.read(columnNode, false);
                if (column.size() != index.size()) {
                    throw Hdf5.error(
                            columnNode,
                            "expected " + index.size() + " values (one per index entry), found " + column.size());
                }
                frame.put(name, column);
            }
            return frame;
        });
    }
}
