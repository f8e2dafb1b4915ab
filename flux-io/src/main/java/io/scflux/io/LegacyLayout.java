/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.jhdf.api.Group;
import io.jhdf.api.Node;
import io.scflux.core.anndata.Column;
import io.scflux.io.hdf5.ArrayReader;
import io.scflux.io.hdf5.Hdf5;

/**
 * What scflux knows of the layouts anndata wrote before 0.8 tagged every element. anndata 0.7's dataframes (columns
 * as plain datasets, categorical codes with their categories in a {@code __categories} subgroup) are read; anndata
 * 0.6's (obs and var as compound datasets, a top-level {@code raw.X}) are rejected as an unsupported legacy layout.
 */
final class LegacyLayout {

    private static final String CATEGORIES = "__categories";
    private static final String[] LEGACY_RAW = {"raw.X", "raw.var", "raw.varm"};

    private LegacyLayout() {}

    /** Rejects a root that is not AnnData's, or is in a layout scflux does not read, naming what was found. */
    static void check(Group root) {
        String encoding = Hdf5.encodingType(root);
        if (encoding != null && !"anndata".equals(encoding)) {
            throw Hdf5.error(root, "expected encoding-type anndata at the root, found " + encoding);
        }
        for (String axis : new String[] {"obs", "var"}) {
            Node node = Hdf5.childOrNull(root, axis);
            if (node == null) {
                throw Hdf5.error(
                        root,
                        encoding == null
                                ? "not an AnnData file: no encoding-type attribute and no '" + axis + "'"
                                : "missing '" + axis + "'");
            }
            if (!node.isGroup()) {
                throw Hdf5.error(
                        node,
                        "unsupported legacy layout: " + axis + " is a " + kind(node) + " (anndata < "
                                + "0.7 stored dataframes as structured arrays); rewrite the file with anndata >= 0.7");
            }
        }
        for (String name : LEGACY_RAW) {
            Node node = Hdf5.childOrNull(root, name);
            if (node != null) {
                throw Hdf5.error(
                        node,
                        "unsupported legacy layout: top-level " + name + " (anndata < 0.7 raw); "
                                + "rewrite the file with anndata >= 0.7");
            }
        }
    }

    /**
     * A column of an anndata 0.7 dataframe {@code frame}: categorical when {@code __categories} holds categories
     * under its name (the codes are then the column's dataset, {@code ordered} an attribute of the categories),
     * otherwise read as an encoded or plain column.
     */
    static Column column(Node frame, Node column) {
        Node categories =
                column.isGroup() ? null : Hdf5.childOrNull(Hdf5.childOrNull(frame, CATEGORIES), column.getName());
        if (categories == null) {
            return ColumnReader.read(column, true);
        }
        return Hdf5.guard(
                column,
                () -> ColumnReader.categorical(column, categories, Hdf5.boolAttr(categories, "ordered", false)));
    }

    private static String kind(Node node) {
        return ArrayReader.isRecord(node) ? "compound dataset" : "dataset";
    }
}
