/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.ops.parameter.Parameter;
import java.util.List;

/**
 * A command whose options include catalog parameters: the root command adds them ({@link StepOptions}), so that they
 * are declared once, in the step's options record.
 */
interface StepCommand {

    /** The parameters whose options this command takes. */
    List<Parameter<?>> parameters();
}
