<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>ws::DistributedView</name>
    <message numerus="yes">
        <source>%n worker(s)</source>
        <translation>
            <numerusform>%n worker</numerusform>
            <numerusform>%n workers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n communication op(s) are not on every worker: their waiting time is not split</source>
        <translation>
            <numerusform>%n communication op is not on every worker: its waiting time is not split</numerusform>
            <numerusform>%n communication ops are not on every worker: their waiting time is not split</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::FlameGraphView</name>
    <message numerus="yes">
        <source>%n dispatch frame(s) folded</source>
        <translation>
            <numerusform>%n dispatch frame folded</numerusform>
            <numerusform>%n dispatch frames folded</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::ImportReportBanner</name>
    <message numerus="yes">
        <source>The import skipped or repaired %n item(s).</source>
        <translation>
            <numerusform>The import skipped or repaired %n item.</numerusform>
            <numerusform>The import skipped or repaired %n items.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::InferencePanel</name>
    <message numerus="yes">
        <source>%n forward(s) in %1 request(s) on GPU %2, cut at the LM head (%3)</source>
        <translation>
            <numerusform>%n forward in %1 request(s) on GPU %2, cut at the LM head (%3)</numerusform>
            <numerusform>%n forwards in %1 request(s) on GPU %2, cut at the LM head (%3)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::JobPage</name>
    <message numerus="yes">
        <source>%1 (%n rank(s))</source>
        <translation>
            <numerusform>%1 (%n rank)</numerusform>
            <numerusform>%1 (%n ranks)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::JobTimelineView</name>
    <message numerus="yes">
        <source>%n rank(s)</source>
        <translation>
            <numerusform>%n rank</numerusform>
            <numerusform>%n ranks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::KernelTableView</name>
    <message numerus="yes">
        <source>None of the %n launch(es) Nsight Compute profiled has a kernel of the same function name in this session.</source>
        <translation>
            <numerusform>The %n launch Nsight Compute profiled has no kernel of the same function name in this session.</numerusform>
            <numerusform>None of the %n launches Nsight Compute profiled has a kernel of the same function name in this session.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::MainWindow</name>
    <message numerus="yes">
        <source>Opened a job of %n rank(s) in %1 ms</source>
        <translation>
            <numerusform>Opened a job of %n rank in %1 ms</numerusform>
            <numerusform>Opened a job of %n ranks in %1 ms</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Removed %n unfinished session(s) left by imports that were interrupted</source>
        <translation>
            <numerusform>Removed %n unfinished session left by imports that were interrupted</numerusform>
            <numerusform>Removed %n unfinished sessions left by imports that were interrupted</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Moved %n unreadable session file(s) to %1</source>
        <translation>
            <numerusform>Moved %n unreadable session file to %1</numerusform>
            <numerusform>Moved %n unreadable session files to %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n file</numerusform>
            <numerusform>%n files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Could not open %n file(s):</source>
        <translation>
            <numerusform>Could not open %n file:</numerusform>
            <numerusform>Could not open %n files:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… and %n more (see the details)</source>
        <translation>
            <numerusform>… and %n more (see the details)</numerusform>
            <numerusform>… and %n more (see the details)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Saved %n summary tables in %1</source>
        <translation>
            <numerusform>Saved %n summary table in %1</numerusform>
            <numerusform>Saved %n summary tables in %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::OverviewView</name>
    <message numerus="yes">
        <source>Selected range: %n profiler step(s) inside it, clipped to it, %1</source>
        <translation>
            <numerusform>Selected range: %n profiler step inside it, clipped to it, %1</numerusform>
            <numerusform>Selected range: %n profiler steps inside it, clipped to it, %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · recorded only between cudaProfilerStart and cudaProfilerStop: %1 unseen between the recorded spans and %n step(s) that reached into it are left out</source>
        <translation>
            <numerusform> · recorded only between cudaProfilerStart and cudaProfilerStop: %1 unseen between the recorded spans and %n step that reached into it are left out</numerusform>
            <numerusform> · recorded only between cudaProfilerStart and cudaProfilerStop: %1 unseen between the recorded spans and %n steps that reached into it are left out</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Whole trace: %n profiler step(s), %1</source>
        <translation>
            <numerusform>Whole trace: %n profiler step, %1</numerusform>
            <numerusform>Whole trace: %n profiler steps, %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n GPU idle gap(s) of at least %1 inside the steps: %2 per step, %3 of the steps&apos; time, classified by what the thread that launched the next GPU work did meanwhile. Click a row to mark its gaps on the timeline.</source>
        <translation>
            <numerusform>%n GPU idle gap of at least %1 inside the steps: %2 per step, %3 of the steps&apos; time, classified by what the thread that launched the next GPU work did meanwhile. Click a row to mark its gaps on the timeline.</numerusform>
            <numerusform>%n GPU idle gaps of at least %1 inside the steps: %2 per step, %3 of the steps&apos; time, classified by what the thread that launched the next GPU work did meanwhile. Click a row to mark its gaps on the timeline.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::QueryView</name>
    <message numerus="yes">
        <source>%n row(s)</source>
        <translation>
            <numerusform>%n row</numerusform>
            <numerusform>%n rows</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::RangeSummaryView</name>
    <message numerus="yes">
        <source>%1 to %2 (%3): %n distinct name(s)</source>
        <translation>
            <numerusform>%1 to %2 (%3): %n distinct name</numerusform>
            <numerusform>%1 to %2 (%3): %n distinct names</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::RooflineView</name>
    <message numerus="yes">
        <source>%1 (Nsight Compute, %n launch(es))</source>
        <translation>
            <numerusform>%1 (Nsight Compute, %n launch)</numerusform>
            <numerusform>%1 (Nsight Compute, %n launches)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Nsight Compute: %n launch(es) attached.</source>
        <translation>
            <numerusform>Nsight Compute: %n launch attached.</numerusform>
            <numerusform>Nsight Compute: %n launches attached.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::SearchBar</name>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n match</numerusform>
            <numerusform>%n matches</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::SliceDetailsView</name>
    <message numerus="yes">
        <source>%n frame(s), innermost first; click a function to see its source</source>
        <translation>
            <numerusform>%n frame, innermost first; click a function to see its source</numerusform>
            <numerusform>%n frames, innermost first; click a function to see its source</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::SnapshotStateView</name>
    <message numerus="yes">
        <source>%n allocation(s) outside every segment</source>
        <translation>
            <numerusform>%n allocation outside every segment</numerusform>
            <numerusform>%n allocations outside every segment</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::StackView</name>
    <message numerus="yes">
        <source>%n frame(s); none has a source location (record with with_stack=True).</source>
        <translation>
            <numerusform>%n frame; none has a source location (record with with_stack=True).</numerusform>
            <numerusform>%n frames; none has a source location (record with with_stack=True).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s); none has a source location (record the capture with warpscope-capture --py-stacks, or New Capture&apos;s &quot;Python call stacks&quot;).</source>
        <translation>
            <numerusform>%n frame; none has a source location (record the capture with warpscope-capture --py-stacks, or New Capture&apos;s &quot;Python call stacks&quot;).</numerusform>
            <numerusform>%n frames; none has a source location (record the capture with warpscope-capture --py-stacks, or New Capture&apos;s &quot;Python call stacks&quot;).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s), innermost first. Enter shows the source, Ctrl+Enter opens the editor.</source>
        <translation>
            <numerusform>%n frame, innermost first. Enter shows the source, Ctrl+Enter opens the editor.</numerusform>
            <numerusform>%n frames, innermost first. Enter shows the source, Ctrl+Enter opens the editor.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s); none has a source location (record the snapshot with _record_memory_history(stacks=&quot;python&quot;) or &quot;all&quot;).</source>
        <translation>
            <numerusform>%n frame; it has no source location (record the snapshot with _record_memory_history(stacks=&quot;python&quot;) or &quot;all&quot;).</numerusform>
            <numerusform>%n frames; none has a source location (record the snapshot with _record_memory_history(stacks=&quot;python&quot;) or &quot;all&quot;).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s), innermost first, %1 dispatch frame(s) hidden. Enter shows the source, Ctrl+Enter opens the editor.</source>
        <translation>
            <numerusform>%n frame, innermost first, %1 dispatch frame(s) hidden. Enter shows the source, Ctrl+Enter opens the editor.</numerusform>
            <numerusform>%n frames, innermost first, %1 dispatch frame(s) hidden. Enter shows the source, Ctrl+Enter opens the editor.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::TimelineView</name>
    <message numerus="yes">
        <source>%n events</source>
        <translation>
            <numerusform>%n event</numerusform>
            <numerusform>%n events</numerusform>
        </translation>
    </message>
</context>
</TS>
