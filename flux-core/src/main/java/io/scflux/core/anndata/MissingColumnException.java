/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

/**
 * A column that a step names (a qc variable, a batch key, a sample column) is not in the obs or var dataframe: pandas'
 * {@code KeyError}, told apart from other bad arguments so that a caller can say so.
 */
public class MissingColumnException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public MissingColumnException(String message) {
        super(message);
    }
}
