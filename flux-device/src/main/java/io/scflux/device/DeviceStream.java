package io.scflux.device;

import io.scflux.core.BlockSource;
import io.scflux.core.backend.MemoryAccount;
import reactor.core.publisher.Flux;

/**
 * A source's blocks uploaded one after another into one set of {@link DeviceBlocks}, allocated on subscription for
 * the plan's largest block and freed on completion, error or cancel.
 */
final class DeviceStream {

    private DeviceStream() {
    }

    static Flux<DeviceBlock> of(BlockSource source, DevicePlan plan, DeviceMemory memory, MemoryAccount account) {
        return Flux.using(
                () -> new DeviceBlocks(memory, account, plan.maxBlockRows(), plan.maxBlockNnz()),
                buffers -> source.blocks(plan.plan()).map(b -> {
                    buffers.upload(b, true, null);
                    return new DeviceBlock(b, buffers);
                }),
                DeviceBlocks::close);
    }
}
