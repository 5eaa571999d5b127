#pragma once

#include "format/wscapformat.h"
#include "format/wscapwriter.h"
#include "inject/activityencoder.h"
#include "inject/chunkqueue.h"
#include "inject/graphrecorder.h"
#include "inject/injectconfig.h"
#include "inject/hostsampler.h"
#include "inject/launchcallbacks.h"
#include "inject/launchrecorder.h"
#include "inject/nvmlsampler.h"
#include "inject/pmsampler.h"
#include "inject/pysampler.h"
#include "inject/stackrecorder.h"
#include "inject/tickline.h"

#include <cupti.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ws {

/*
 * Tracer: everything warpscope_inject does inside the host process, one instance per process.
 *
 * Threads: CUPTI's buffer-completion callback (on CUPTI's thread, or on whichever thread flushes)
 * only queues the completed buffer; the writer thread owns the file, encodes queued buffers into
 * records, writes them and the chunks the samplers queue, calls cuptiActivityFlushAll(0) every
 * flushMs and then writes a Flush record, so a killed process leaves everything up to its last
 * flush on disk. No lock is held while calling into CUPTI, which may call back into
 * bufferCompleted on the calling thread. Kernel names in queued buffers point into CUPTI's own
 * tables, which outlive the callback (Kineto also decodes buffers after their callback).
 *
 * Failure policy: nothing here may exit, abort or throw into the host. An error is queued as an
 * Error record, printed once as a "[warpscope] ..." line on stderr and, when fatal, stops tracing:
 * the writer thread disables activities, flushes, writes the Footer and closes the file; the host
 * runs on untraced.
 *
 * Fork: a child of fork() inherits the tracer's memory but none of its threads. It closes the
 * parent's file without writing to it and traces nothing (CUDA is unusable after fork anyway); a
 * child that execs is a new process and, with the environment inherited, is injected afresh into
 * its own <host>-<pid>.wscap.
 */
class Tracer {
public:
    static Tracer& instance();

    bool initialize();
    void finalize();
    void forkedChild();

private:
    Tracer() = default;

    static void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords);
    static void CUPTIAPI bufferCompleted(CUcontext ctx, uint32_t streamId, uint8_t* buffer, size_t size,
                                         size_t validSize);
    void onBufferCompleted(CUcontext ctx, uint32_t streamId, uint8_t* buffer, size_t validSize);
    // A buffer back from CUPTI: zeroed into the pool (writer thread), or freed.
    void releaseBuffer(uint8_t* buffer, bool zero);
    void fillBufferPool(); // writer thread: zeroed buffers ready for CUPTI's next requests
    bool poolHasRoom();
    void addZeroedToPool(uint8_t* buffer); // writer thread
    void encodeCompletedBuffers();

    bool check(CUptiResult result, const char* where, bool fatal);
    void report(wscap::ErrorSeverity severity, const std::string& where, int code, const std::string& message);
    bool enableActivities();
    void benchCallbacks(uint32_t n); // WARPSCOPE_BENCH_CALLBACKS: the launch callbacks' and clocks' own cost
    void reportCallbackTime();       // WARPSCOPE_TIME_CALLBACKS: their own time in the program, at exit
    void startCallbacks(); // the launch callbacks of the "launches", "stacks" and "pystacks" activities
    bool configureStacks(); // the stacks' depths, once stacks are wanted; false when they are not
    void watchGraphs();     // the "graphs" activity: on from the start, through pauses
    void disableActivities();
    // --capture-range=cudaProfilerApi: the program's cuProfilerStart/Stop (any thread) ask, the writer
    // thread switches.
    static void onProfilerRange(bool start);
    void pauseRecording();
    void resumeRecording();
    void closeRange(); // a Recording record for the open range, if any
    void writerLoop();
    void runWriter();
    void writeQueued(std::vector<std::string>&& chunks);
    void closeStream(wscap::FooterReason reason);
    uint64_t timestamp() const;
    void writeStreamHeader();
    void stopSamplers();
    // final: the last write of the stream (windows still open end here).
    void writeThreadRecords(bool final); // what the program's threads recorded: call stacks, driver launches, NVTX ranges

    InjectConfig m_config;
    std::mutex m_initMutex;
    bool m_initialized = false;
    pid_t m_pid = 0;

    wscap::WscapWriter m_writer; // writer thread only; finalize() after joining it
    ChunkQueue m_queue;
    std::mutex m_encoderMutex;
    ActivityEncoder m_encoder;
    NvmlSampler m_nvml;
    HostSampler m_host;
    PmSampler m_pm;
    PySampler m_pySampler;      // the "pysample" activity (opt-in)
    StackRecorder m_stacks;     // the "stacks" and "pystacks" activities (opt-in)
    LaunchRecorder m_launches;  // the "launches" activity: driver-API launches
    GraphRecorder m_graphs;     // the "graphs" activity: what each graph node was made from
    LaunchCallbacks m_callbacks; // the one CUPTI subscriber, feeding both
    TickLine m_tickLine;         // HostTicks to CUPTI's clock for launches and operator ranges (under m_encoderMutex)
    std::thread m_writerThread;

    std::atomic<bool> m_collecting{false};    // activity kinds are enabled
    bool m_rangeMode = false;                 // recording follows cuProfilerStart/Stop
    std::atomic<bool> m_rangeWanted{false};   // the last of them was a start
    std::atomic<bool> m_started{false};       // past the delay: the writer follows m_rangeWanted
    std::mutex m_rangeMutex;                  // with m_rangeSwitched: the caller waits for the switch
    std::condition_variable m_rangeSwitched;
    uint32_t m_ranges = 0;                    // recorded ranges (writer thread)
    uint64_t m_rangeStart = 0;                // when the open one began (0: none)
    uint64_t m_rangeNs = 0;                   // the closed ones' time
    std::atomic<bool> m_stopRequested{false}; // a fatal error asked the writer to stop tracing
    std::atomic<bool> m_exitRequested{false}; // finalize() asked the writer to finish
    std::atomic<bool> m_closed{false};        // the stream has its footer (or was dropped)
    std::atomic<bool> m_forked{false};
    std::atomic<bool> m_printedError{false};
    std::atomic<uint64_t> m_dropped{0};
    std::atomic<uint64_t> m_outstandingBytes{0};
    std::atomic<bool> m_warnedRefusal{false};
    std::atomic<bool> m_warnedRangeWait{false};
    std::vector<CUpti_ActivityKind> m_enabledKinds;
    uint32_t m_flushSequence = 0;
    uint64_t m_recordsWritten = 0;

    std::mutex m_bufferMutex;
    std::vector<std::pair<uint8_t*, size_t>> m_completedBuffers; // CUPTI buffers awaiting encoding
    static constexpr size_t kPoolBuffers = 8; // zeroed, for CUPTI's requests (a few per launching thread)
    std::mutex m_poolMutex;
    std::vector<uint8_t*> m_pool;
};

} // namespace ws
