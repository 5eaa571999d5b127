<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>HeadlineDiffModel</name>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Step time (mean)</source>
        <translation>步时间（平均）</translation>
    </message>
    <message>
        <source>GPU utilization</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>Est. SM efficiency</source>
        <translation>估计 SM 效率</translation>
    </message>
    <message>
        <source>Est. achieved occupancy</source>
        <translation>估计实际占用率</translation>
    </message>
    <message>
        <source>Tensor Core share of kernel time</source>
        <translation>Tensor Core 占内核时间比例</translation>
    </message>
    <message>
        <source>Peak allocated memory</source>
        <translation>峰值已分配内存</translation>
    </message>
    <message>
        <source>Kernel time per step</source>
        <translation>每步内核时间</translation>
    </message>
    <message>
        <source>Memcpy time per step</source>
        <translation>每步内存拷贝时间</translation>
    </message>
    <message>
        <source>Communication time per step</source>
        <translation>每步通信时间</translation>
    </message>
    <message>
        <source>CPU exec time per step</source>
        <translation>每步 CPU 执行时间</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Native profiler viewer for GPU and deep-learning workloads.</source>
        <translation>面向 GPU 与深度学习工作负载的原生性能分析查看器。</translation>
    </message>
    <message>
        <source>Trace files to open.</source>
        <translation>要打开的跟踪文件。</translation>
    </message>
    <message>
        <source>Render the main window (after loading FILEs) to a PNG and exit.</source>
        <translation>将主窗口（加载文件后）渲染为 PNG 并退出。</translation>
    </message>
    <message>
        <source>Exit once the files are loaded (status 1 if any failed).</source>
        <translation>文件加载完成后退出（任一失败时退出状态为 1）。</translation>
    </message>
    <message>
        <source>Benchmark the timeline on FILE offscreen (frame and hit-test times) and exit.</source>
        <translation>在离屏环境中对 FILE 的时间线进行基准测试（帧时间与命中测试时间）后退出。</translation>
    </message>
    <message>
        <source>Show this time range first, in ms from the session start (e.g. 1.5,3).</source>
        <translation>首先显示此时间范围，单位为毫秒，从会话开始计（例如 1.5,3）。</translation>
    </message>
    <message>
        <source>Select the first slice whose name contains TEXT.</source>
        <translation>选中名称包含 TEXT 的第一个片段。</translation>
    </message>
    <message>
        <source>Benchmark the job (the FILE folder, or --summaries DIR) offscreen: table sorts, step switch.</source>
        <translation>在屏幕外对作业（FILE 文件夹或 --summaries DIR）做基准测试：表格排序、步骤切换。</translation>
    </message>
    <message>
        <source>Open the job made of the warpscope-cli summary --json files in DIR.</source>
        <translation>打开由 DIR 中 warpscope-cli summary --json 文件组成的作业。</translation>
    </message>
    <message>
        <source>Compare the second FILE with the first (a Compare tab).</source>
        <translation>将第二个文件与第一个进行比较（打开比较标签页）。</translation>
    </message>
    <message>
        <source>The settings file could not be read; it was kept as %1 and the defaults are used</source>
        <translation>无法读取设置文件；已保留为 %1，并使用默认设置</translation>
    </message>
    <message>
        <source>Show this bottom tab, computed (overview, kernels, operators, memory, stack, flame, ...).</source>
        <translation>显示此底部标签页并完成计算（overview、kernels、operators、memory、stack、flame 等）。</translation>
    </message>
    <message>
        <source>Benchmark the flame graph of FILE offscreen (build and redraw times) and exit.</source>
        <translation>在离屏环境中对 FILE 的火焰图进行基准测试（构建与重绘时间）后退出。</translation>
    </message>
    <message>
        <source>Frames rendered by --bench-timeline or --bench-flame.</source>
        <translation>--bench-timeline 或 --bench-flame 渲染的帧数。</translation>
    </message>
    <message>
        <source>Benchmark the Live tab offscreen while FILE is replayed into a folder at its recorded pace (latency and frame times) and exit.</source>
        <translation>在离屏状态下将 FILE 按录制时的节奏重放到文件夹中，同时对“实时”标签页进行基准测试（延迟和帧时间），然后退出。</translation>
    </message>
    <message>
        <source>With --bench-live: import the whole folder again on each update (for comparison).</source>
        <translation>与 --bench-live 一起使用：每次更新时重新导入整个文件夹（用于对比）。</translation>
    </message>
    <message>
        <source>With --bench-live: replay this many copies of FILE side by side.</source>
        <translation>与 --bench-live 一起使用：并排重放 FILE 的这么多份副本。</translation>
    </message>
    <message>
        <source>With --bench-live: replay this many times faster than recorded.</source>
        <translation>与 --bench-live 一起使用：以录制速度的这么多倍重放。</translation>
    </message>
    <message>
        <source>Benchmark reopening FILE: the model read and each analysis tab&apos;s first view, and exit.</source>
        <translation>基准测试重新打开 FILE：读取模型及每个分析标签页的首个视图所需时间，然后退出。</translation>
    </message>
    <message>
        <source>Open the first FILE with this PyTorch memory snapshot of the same run on its time axis.</source>
        <translation>打开第一个 FILE，并将同一次运行的 PyTorch 内存快照放在其时间轴上。</translation>
    </message>
    <message>
        <source>Render every bottom tab of the first FILE, and the New Capture dialog, to PNGs in DIR and exit.</source>
        <translation>将第一个 FILE 的每个底部标签页以及“新建采集”对话框渲染为 DIR 中的 PNG，然后退出。</translation>
    </message>
    <message>
        <source>Let the bottom tabs fill the window, the timeline hidden (with --tab).</source>
        <translation>让底部标签页占满窗口并隐藏时间线（与 --tab 一起使用）。</translation>
    </message>
</context>
<context>
    <name>ws::BookmarkModel</name>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
</context>
<context>
    <name>ws::CommOpModel</name>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>Bytes of the operation&apos;s input tensors (shape x element size), summed over calls</source>
        <translation>操作输入张量的字节数（形状 × 元素大小），按调用求和</translation>
    </message>
    <message>
        <source>Time the operation was in flight: its CPU call and its kernels, summed over calls</source>
        <translation>操作进行中的时间：其 CPU 调用和内核，按调用求和</translation>
    </message>
    <message>
        <source>Latency minus the time spent waiting for other ranks</source>
        <translation>延迟减去等待其他 rank 的时间</translation>
    </message>
    <message>
        <source>nccl-tests algorithm bandwidth: size / kernel time (GB/s)</source>
        <translation>nccl-tests 算法带宽：大小 / 内核时间（GB/s）</translation>
    </message>
    <message>
        <source>nccl-tests bus bandwidth: algorithm bandwidth x the collective&apos;s factor for the group size (GB/s)</source>
        <translation>nccl-tests 总线带宽：算法带宽 × 该集合通信在此组大小下的系数（GB/s）</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Process group</source>
        <translation>进程组</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Total size</source>
        <translation>总大小</translation>
    </message>
    <message>
        <source>Mean size</source>
        <translation>平均大小</translation>
    </message>
    <message>
        <source>Total latency</source>
        <translation>总延迟</translation>
    </message>
    <message>
        <source>Mean latency</source>
        <translation>平均延迟</translation>
    </message>
    <message>
        <source>Transfer</source>
        <translation>传输</translation>
    </message>
    <message>
        <source>Alg. BW (GB/s)</source>
        <translation>算法带宽 (GB/s)</translation>
    </message>
    <message>
        <source>Bus BW (GB/s)</source>
        <translation>总线带宽 (GB/s)</translation>
    </message>
</context>
<context>
    <name>ws::CompareView</name>
    <message>
        <source>By name</source>
        <translation>按名称</translation>
    </message>
    <message>
        <source>By name and input shape</source>
        <translation>按名称和输入形状</translation>
    </message>
    <message>
        <source>By name and call stack</source>
        <translation>按名称和调用栈</translation>
    </message>
    <message>
        <source>Operators:</source>
        <translation>算子：</translation>
    </message>
    <message>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>&lt;b&gt;B&lt;/b&gt; %1 &amp;nbsp;compared with&amp;nbsp; &lt;b&gt;A&lt;/b&gt; %2</source>
        <translation>&lt;b&gt;B&lt;/b&gt; %1 &amp;nbsp;对比&amp;nbsp; &lt;b&gt;A&lt;/b&gt; %2</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message>
        <source>B&apos;s mean step is %1 % slower than A&apos;s.</source>
        <translation>B 的平均步时间比 A 慢 %1 %。</translation>
    </message>
    <message>
        <source>B&apos;s mean step is %1 % faster than A&apos;s.</source>
        <translation>B 的平均步时间比 A 快 %1 %。</translation>
    </message>
    <message>
        <source>The step times cannot be compared.</source>
        <translation>无法比较步时间。</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步</translation>
    </message>
    <message>
        <source>A: step time breakdown</source>
        <translation>A：步时间分解</translation>
    </message>
    <message>
        <source>B: step time breakdown</source>
        <translation>B：步时间分解</translation>
    </message>
    <message>
        <source>A:</source>
        <translation>A：</translation>
    </message>
    <message>
        <source>B:</source>
        <translation>B：</translation>
    </message>
    <message>
        <source>All steps</source>
        <translation>所有步</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>Step #%1</source>
        <translation>第 #%1 步</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Timelines</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B：%1</translation>
    </message>
    <message>
        <source>Selected range (%1)</source>
        <translation>选定范围（%1）</translation>
    </message>
    <message>
        <source>By operator and name</source>
        <translation>按算子和名称</translation>
    </message>
    <message>
        <source>Kernels:</source>
        <translation>内核：</translation>
    </message>
    <message>
        <source>B has no call stacks: matched by name.</source>
        <translation>B 没有调用栈：按名称匹配。</translation>
    </message>
    <message>
        <source>A has no call stacks: matched by name.</source>
        <translation>A 没有调用栈：按名称匹配。</translation>
    </message>
    <message>
        <source>Neither run has call stacks: matched by name.</source>
        <translation>两次运行都没有调用栈：按名称匹配。</translation>
    </message>
    <message>
        <source>Memory snapshots</source>
        <translation>内存快照</translation>
    </message>
</context>
<context>
    <name>ws::DerivedCounter</name>
    <message>
        <source>GPU Utilization</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>Est. SM Efficiency</source>
        <translation>估计 SM 效率</translation>
    </message>
    <message>
        <source>GPU Memory Allocated</source>
        <translation>GPU 已分配内存</translation>
    </message>
    <message>
        <source>GPU Memory Reserved</source>
        <translation>GPU 已保留内存</translation>
    </message>
    <message>
        <source>CPU Memory Allocated</source>
        <translation>CPU 已分配内存</translation>
    </message>
    <message>
        <source>CPU Memory Reserved</source>
        <translation>CPU 已保留内存</translation>
    </message>
    <message>
        <source>GPU Memory (net allocations)</source>
        <translation>GPU 内存（净分配）</translation>
    </message>
    <message>
        <source>CPU Memory (net allocations)</source>
        <translation>CPU 内存（净分配）</translation>
    </message>
    <message>
        <source>Est. CU Efficiency</source>
        <translation>估计 CU 效率</translation>
    </message>
    <message>
        <source>Inference Phase</source>
        <translation>推理阶段</translation>
    </message>
    <message>
        <source>Time per Output Token (ms)</source>
        <translation>每个输出 token 的时间（毫秒）</translation>
    </message>
</context>
<context>
    <name>ws::DiffMemoryChart</name>
    <message>
        <source>Time since the start of the run or step (ms)</source>
        <translation>自运行或步开始的时间（ms）</translation>
    </message>
    <message>
        <source>Allocated (MiB)</source>
        <translation>已分配（MiB）</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>A: no GPU memory records</source>
        <translation>A：无 GPU 内存记录</translation>
    </message>
    <message>
        <source>B: no GPU memory records</source>
        <translation>B：无 GPU 内存记录</translation>
    </message>
    <message>
        <source>A: allocated on %1</source>
        <translation>A：%1 上已分配</translation>
    </message>
    <message>
        <source>B: allocated on %1</source>
        <translation>B：%1 上已分配</translation>
    </message>
</context>
<context>
    <name>ws::DiffWaterfallChart</name>
    <message>
        <source>A: kernel time</source>
        <translation>A：内核时间</translation>
    </message>
    <message>
        <source>all other kernels</source>
        <translation>其余所有内核</translation>
    </message>
    <message>
        <source>B: kernel time</source>
        <translation>B：内核时间</translation>
    </message>
    <message>
        <source>No kernels in either run</source>
        <translation>两次运行均无内核</translation>
    </message>
</context>
<context>
    <name>ws::DistributedView</name>
    <message>
        <source>Steps:</source>
        <translation>步骤：</translation>
    </message>
    <message>
        <source>Double-click a worker to open its trace</source>
        <translation>双击一个 worker 打开其跟踪</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Straggler</source>
        <translation>拖后者</translation>
    </message>
    <message>
        <source>Others wait (mean)</source>
        <translation>其他 rank 等待（平均）</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>Communication operations</source>
        <translation>通信操作</translation>
    </message>
    <message>
        <source>Stragglers per step</source>
        <translation>每步的拖后者</translation>
    </message>
    <message>
        <source>All steps (mean)</source>
        <translation>所有步骤（平均）</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>步骤 %1</translation>
    </message>
    <message>
        <source>Computation</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Overlap</source>
        <translation>重叠</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Synchronizing</source>
        <translation>同步等待</translation>
    </message>
    <message>
        <source>Transfer</source>
        <translation>传输</translation>
    </message>
    <message>
        <source>mean per step</source>
        <translation>每步平均</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>步骤 %1</translation>
    </message>
    <message>
        <source>Computation and communication (%1)</source>
        <translation>计算与通信（%1）</translation>
    </message>
    <message>
        <source>Communication: synchronizing vs transfer (%1)</source>
        <translation>通信：同步等待与传输（%1）</translation>
    </message>
    <message>
        <source>rank %1 (%2)</source>
        <translation>rank %1（%2）</translation>
    </message>
    <message numerus="yes">
        <source>%n worker(s)</source>
        <translation>
            <numerusform>%n 个 worker</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;Straggler: rank %1&lt;/b&gt; (%2): the other ranks wait %3 for it per step on average</source>
        <translation>&lt;b&gt;拖后者：rank %1&lt;/b&gt;（%2）：其他 rank 每步平均等待它 %3</translation>
    </message>
    <message>
        <source>slowest step time: rank %1 (%2), fastest: rank %3 (%4)</source>
        <translation>步骤时间最慢：rank %1（%2），最快：rank %3（%4）</translation>
    </message>
    <message>
        <source>steps overlapping the selected range only</source>
        <translation>仅限与所选范围重叠的步骤</translation>
    </message>
    <message numerus="yes">
        <source>%n communication op(s) are not on every worker: their waiting time is not split</source>
        <translation>
            <numerusform>%n 个通信操作并非在每个 worker 上都有：其等待时间未拆分</numerusform>
        </translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation>已跳过：%1</translation>
    </message>
    <message>
        <source>Clocks: manual offsets</source>
        <translation>时钟：手动偏移</translation>
    </message>
    <message>
        <source>Clocks: as recorded (the first common event is %1 apart across ranks)</source>
        <translation>时钟：按记录（首个共同事件在各 rank 间相差 %1）</translation>
    </message>
    <message>
        <source>Clocks: aligned on the end of the first common collective %1 (it was %2 apart)</source>
        <translation>时钟：按首个共同集合通信 %1 的结束对齐（原相差 %2）</translation>
    </message>
    <message>
        <source>Clocks: aligned on the start of the first common step %1 (it was %2 apart)</source>
        <translation>时钟：按首个共同步骤 %1 的开始对齐（原相差 %2）</translation>
    </message>
    <message>
        <source>no collective recorded on any worker (NCCL kernels or nccl:*/gloo:* ranges), so no waits: a capture records Gloo&apos;s collectives only with --torch-ops</source>
        <translation>任何 worker 上都没有记录到集合通信（NCCL 内核或 nccl:*/gloo:* 区间），因此没有等待：capture 只有加上 --torch-ops 才会记录 Gloo 的集合通信</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>while they wait, its GPU idles %1 per step: %2</source>
        <translation>其他 rank 等待期间，它的 GPU 每步空闲 %1：%2</translation>
    </message>
</context>
<context>
    <name>ws::DistributedWorkerModel</name>
    <message>
        <source>?</source>
        <translation>?</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>slowest</source>
        <translation>最慢</translation>
    </message>
    <message>
        <source>fastest</source>
        <translation>最快</translation>
    </message>
    <message>
        <source>straggler: others wait %1 per step</source>
        <translation>拖后者：其他 rank 每步等待 %1</translation>
    </message>
    <message>
        <source>Mean per step: kernel time not overlapped by communication</source>
        <translation>每步平均：未与通信重叠的内核时间</translation>
    </message>
    <message>
        <source>Mean per step: computation and communication at the same time</source>
        <translation>每步平均：计算与通信同时进行的时间</translation>
    </message>
    <message>
        <source>Mean per step: communication not overlapped by computation</source>
        <translation>每步平均：未与计算重叠的通信时间</translation>
    </message>
    <message>
        <source>Mean per step: neither computation nor communication (CPU, idle)</source>
        <translation>每步平均：既非计算也非通信（CPU、空闲）</translation>
    </message>
    <message>
        <source>Mean per step: communication spent waiting for the other ranks to arrive</source>
        <translation>每步平均：通信中等待其他 rank 到达的时间</translation>
    </message>
    <message>
        <source>Mean per step: communication spent moving data</source>
        <translation>每步平均：通信中传输数据的时间</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Worker</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>步骤时间</translation>
    </message>
    <message>
        <source>Computation</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Overlap</source>
        <translation>重叠</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Synchronizing</source>
        <translation>同步等待</translation>
    </message>
    <message>
        <source>Transfer</source>
        <translation>传输</translation>
    </message>
    <message>
        <source>GPU utilization</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation>峰值内存</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
</context>
<context>
    <name>ws::FlameGraphCanvas</name>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Total: %1 (%2)</source>
        <translation>总计：%1（%2）</translation>
    </message>
    <message>
        <source>Self: %1 (%2)</source>
        <translation>自身：%1（%2）</translation>
    </message>
</context>
<context>
    <name>ws::FlameGraphView</name>
    <message>
        <source>Reset Zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>GPU time by launching Python stack</source>
        <translation>按发起启动的 Python 调用栈统计 GPU 时间</translation>
    </message>
    <message>
        <source>Bytes allocated</source>
        <translation>分配的字节数</translation>
    </message>
    <message>
        <source>What the frames weigh</source>
        <translation>帧的权重依据</translation>
    </message>
    <message>
        <source>Top-down (callers first)</source>
        <translation>自顶向下（调用者在前）</translation>
    </message>
    <message>
        <source>Bottom-up (innermost frames first)</source>
        <translation>自底向上（最内层帧在前）</translation>
    </message>
    <message>
        <source>Search functions…</source>
        <translation>搜索函数…</translation>
    </message>
    <message>
        <source>Weight:</source>
        <translation>权重：</translation>
    </message>
    <message>
        <source>The flame graph is computed when this tab is shown.</source>
        <translation>显示此标签页时计算火焰图。</translation>
    </message>
    <message>
        <source>No session.</source>
        <translation>没有会话。</translation>
    </message>
    <message>
        <source>Building the flame graph…</source>
        <translation>正在构建火焰图…</translation>
    </message>
    <message>
        <source>Nothing of this weight in the selected range.</source>
        <translation>所选范围内没有此权重的数据。</translation>
    </message>
    <message>
        <source>Nothing of this weight in this session.</source>
        <translation>此会话中没有此权重的数据。</translation>
    </message>
    <message>
        <source>No flame graph for %1.</source>
        <translation>没有“%1”的火焰图。</translation>
    </message>
    <message>
        <source>Click a frame to zoom into it, double-click to show its source; right-click for more.</source>
        <translation>单击帧可放大到该帧，双击显示其源代码；右键单击查看更多操作。</translation>
    </message>
    <message>
        <source>%1 in %2 events, %3</source>
        <translation>%1，共 %2 个事件，%3</translation>
    </message>
    <message>
        <source>selected range</source>
        <translation>所选范围</translation>
    </message>
    <message>
        <source>whole session</source>
        <translation>整个会话</translation>
    </message>
    <message>
        <source>no frame matches</source>
        <translation>没有匹配的帧</translation>
    </message>
    <message>
        <source>matched %1 of the total</source>
        <translation>匹配占总量的 %1</translation>
    </message>
    <message>
        <source>Zoom Into Frame</source>
        <translation>放大到此帧</translation>
    </message>
    <message>
        <source>Show Source</source>
        <translation>显示源代码</translation>
    </message>
    <message>
        <source>Open in Editor</source>
        <translation>在编辑器中打开</translation>
    </message>
    <message>
        <source>No event here has a call stack: record the capture with warpscope-capture --py-stacks, or New Capture&apos;s &quot;Python call stacks&quot;.</source>
        <translation>这里没有任何事件带调用栈：请用 warpscope-capture --py-stacks 录制，或在“新建捕获”中勾选“Python 调用栈”。</translation>
    </message>
    <message>
        <source>No event here has a call stack: record with with_stack=True.</source>
        <translation>这里没有任何事件带调用栈：请以 with_stack=True 录制。</translation>
    </message>
    <message>
        <source>CPU time by Python stack</source>
        <translation>按 Python 栈的 CPU 时间</translation>
    </message>
    <message>
        <source>torch.profiler: the Python functions&apos; self time; a capture: each CUDA call and the host time before it, on the call&apos;s stack</source>
        <translation>torch.profiler：Python 函数的自身时间；采集：每次 CUDA 调用及其之前的主机时间，归到该调用的栈上</translation>
    </message>
    <message>
        <source>Fold dispatch frames</source>
        <translation>折叠分派帧</translation>
    </message>
    <message>
        <source>Fold nn.Module&apos;s _call_impl and _wrapped_call_impl, decorators&apos; wrappers and __call__ frames into their callers, so model code comes first (Settings lists the patterns)</source>
        <translation>将 nn.Module 的 _call_impl 和 _wrapped_call_impl、装饰器的 wrapper 以及 __call__ 帧折叠到其调用者中，使模型代码排在前面（模式见“设置”）</translation>
    </message>
    <message numerus="yes">
        <source>%n dispatch frame(s) folded</source>
        <translation>
            <numerusform>已折叠 %n 个分派帧</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::Format</name>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>%1 ns</source>
        <translation>%1 纳秒</translation>
    </message>
    <message>
        <source>µs</source>
        <translation>微秒</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>KiB</source>
        <translation>KiB</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>TiB</source>
        <translation>TiB</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Host synchronization</source>
        <translation>主机同步</translation>
    </message>
    <message>
        <source>Collective wait</source>
        <translation>集合通信等待</translation>
    </message>
    <message>
        <source>Data loading</source>
        <translation>数据加载</translation>
    </message>
    <message>
        <source>Python / CPU work</source>
        <translation>Python / CPU 工作</translation>
    </message>
    <message>
        <source>Nothing recorded</source>
        <translation>无记录</translation>
    </message>
    <message>
        <source>host synchronization</source>
        <translation>主机同步</translation>
    </message>
    <message>
        <source>a collective wait</source>
        <translation>集合通信等待</translation>
    </message>
    <message>
        <source>data loading</source>
        <translation>数据加载</translation>
    </message>
    <message>
        <source>nothing recorded</source>
        <translation>未记录任何内容</translation>
    </message>
</context>
<context>
    <name>ws::GettingStartedDialog</name>
    <message>
        <source>Getting Started</source>
        <translation>入门</translation>
    </message>
    <message>
        <source>A profiler records what your program did, moment by moment: which functions ran on the CPU, which kernels (small programs) ran on the GPU, and how much memory was in use. Warpscope shows that record so you can see where the time goes and what to change.</source>
        <translation>性能分析器逐时刻记录程序做了什么：CPU 上运行了哪些函数，GPU 上运行了哪些内核（小程序），以及使用了多少内存。Warpscope 展示这份记录，让你看清时间花在哪里、该改什么。</translation>
    </message>
    <message>
        <source>1. Record your program</source>
        <translation>1. 记录你的程序</translation>
    </message>
    <message>
        <source>&lt;p&gt;Choose &lt;b&gt;File &amp;gt; New Capture…&lt;/b&gt; (Ctrl+N), pick your script, for example &lt;tt&gt;python train.py&lt;/tt&gt;, and press Start. Warpscope runs it under NVIDIA&apos;s CUPTI; your code does not change. Tick &lt;i&gt;Python call stacks of launches&lt;/i&gt; to see which line launched each kernel, and set &lt;i&gt;PyTorch operators&lt;/i&gt; to see the operators.&lt;/p&gt;&lt;p&gt;On the command line, or on a GPU server over SSH: &lt;tt&gt;warpscope-capture -o run1 -- python train.py&lt;/tt&gt;, then &lt;tt&gt;warpscope run1&lt;/tt&gt;; &lt;tt&gt;warpscope-capture --host gpu7 -o run1 -- python train.py&lt;/tt&gt; records on the machine &lt;tt&gt;gpu7&lt;/tt&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;选择&lt;b&gt;文件 &amp;gt; 新建采集…&lt;/b&gt;（Ctrl+N），选择你的脚本，例如 &lt;tt&gt;python train.py&lt;/tt&gt;，然后按“开始”。Warpscope 在 NVIDIA CUPTI 下运行它；你的代码无需修改。勾选&lt;i&gt;启动的 Python 调用栈&lt;/i&gt;可看到每个内核由哪一行启动，设置&lt;i&gt;PyTorch 算子&lt;/i&gt;可看到算子。&lt;/p&gt;&lt;p&gt;在命令行或通过 SSH 在 GPU 服务器上：&lt;tt&gt;warpscope-capture -o run1 -- python train.py&lt;/tt&gt;，然后 &lt;tt&gt;warpscope run1&lt;/tt&gt;；&lt;tt&gt;warpscope-capture --host gpu7 -o run1 -- python train.py&lt;/tt&gt; 在机器 &lt;tt&gt;gpu7&lt;/tt&gt; 上记录。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>2. Or open a trace you already have</source>
        <translation>2. 或打开已有的跟踪</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;File &amp;gt; Open…&lt;/b&gt; (Ctrl+O), or drop the file onto the window. A PyTorch profiler trace (&lt;tt&gt;prof.export_chrome_trace(&quot;trace.json&quot;)&lt;/tt&gt;; record with &lt;tt&gt;with_stack=True&lt;/tt&gt; for source lines), an Nsight Systems export or report, a memory snapshot, and the other formats the welcome page lists. &lt;b&gt;File &amp;gt; Open URL…&lt;/b&gt; reads from S3, Google Cloud Storage, Azure or a web server. Every trace you open is kept in the &lt;b&gt;Session Library&lt;/b&gt; and reopens instantly.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;文件 &amp;gt; 打开…&lt;/b&gt;（Ctrl+O），或将文件拖到窗口上。可以是 PyTorch profiler 跟踪（&lt;tt&gt;prof.export_chrome_trace(&quot;trace.json&quot;)&lt;/tt&gt;；用 &lt;tt&gt;with_stack=True&lt;/tt&gt; 记录以获得源码行）、Nsight Systems 导出或报告、内存快照，以及欢迎页列出的其他格式。&lt;b&gt;文件 &amp;gt; 打开 URL…&lt;/b&gt; 可从 S3、Google Cloud Storage、Azure 或 Web 服务器读取。你打开的每个跟踪都保存在&lt;b&gt;会话库&lt;/b&gt;中，可即时重新打开。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>3. Read the timeline</source>
        <translation>3. 阅读时间线</translation>
    </message>
    <message>
        <source>&lt;p&gt;The top half is the timeline: CPU threads above, GPU streams below, time left to right. Ctrl+wheel zooms, dragging pans, &lt;tt&gt;0&lt;/tt&gt; shows everything. Click a slice to select it; drag on the ruler to select a range, and every tab below follows that range. An arrow joins a CPU call to the GPU work it launched.&lt;/p&gt;</source>
        <translation>&lt;p&gt;上半部分是时间线：上方为 CPU 线程，下方为 GPU 流，时间从左到右。Ctrl+滚轮缩放，拖动平移，&lt;tt&gt;0&lt;/tt&gt; 显示全部。单击切片即可选中；在标尺上拖动可选择范围，下方每个标签页都会跟随该范围。箭头把 CPU 调用与它启动的 GPU 工作连接起来。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>the headline numbers: kernels, copies, steps, GPU utilization.</source>
        <translation>关键数字：内核、拷贝、步数、GPU 利用率。</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>how busy each GPU was, what each training step spent its time on, recommendations, and &lt;i&gt;why the GPU waits&lt;/i&gt;: what the program did while the GPU had nothing to do.</source>
        <translation>每个 GPU 有多忙、每个训练步的时间花在哪里、建议，以及&lt;i&gt;GPU 为何等待&lt;/i&gt;：GPU 无事可做时程序在做什么。</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
    <message>
        <source>the selected slice: its arguments, its Python call stack and what it is linked to.</source>
        <translation>所选切片：其参数、Python 调用栈以及与之关联的事件。</translation>
    </message>
    <message>
        <source>Range</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>what ran inside the selected range, by name.</source>
        <translation>所选范围内按名称列出运行了什么。</translation>
    </message>
    <message>
        <source>Stack</source>
        <translation>调用栈</translation>
    </message>
    <message>
        <source>the frames behind the selection and the source of each, with the GPU time spent on each line.</source>
        <translation>所选内容背后的各帧及其源码，并显示每一行花费的 GPU 时间。</translation>
    </message>
    <message>
        <source>Flame Graph</source>
        <translation>火焰图</translation>
    </message>
    <message>
        <source>which code paths cost the most GPU time, CPU time or memory; wide boxes are expensive. Dispatch frames are folded so your model&apos;s code comes first.</source>
        <translation>哪些代码路径花费最多的 GPU 时间、CPU 时间或内存；越宽的框代价越高。分派帧已折叠，模型代码排在前面。</translation>
    </message>
    <message>
        <source>Bookmarks</source>
        <translation>书签</translation>
    </message>
    <message>
        <source>moments you marked with B on the timeline, with your notes; kept with the session.</source>
        <translation>你在时间线上用 B 标记的时刻及备注；随会话保存。</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>every GPU kernel with its time, shapes, launch geometry and the operator and line that launched it.</source>
        <translation>每个 GPU 内核的时间、形状、启动配置，以及启动它的算子和代码行。</translation>
    </message>
    <message>
        <source>Graphs</source>
        <translation>图</translation>
    </message>
    <message>
        <source>CUDA graph replays and their slowest nodes.</source>
        <translation>CUDA 图重放及其最慢的节点。</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>屋顶线</translation>
    </message>
    <message>
        <source>whether kernels are limited by compute or by memory bandwidth, and how much of the GPU&apos;s peak the model uses.</source>
        <translation>内核受计算还是内存带宽限制，以及模型使用了 GPU 峰值的多少。</translation>
    </message>
    <message>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>PyTorch operators by time on the CPU and the GPU.</source>
        <translation>按 CPU 和 GPU 时间列出的 PyTorch 算子。</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>memory in use over time, the peak, and what allocated it.</source>
        <translation>随时间使用的内存、峰值以及分配它的代码。</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>SQL over everything recorded.</source>
        <translation>对记录的一切执行 SQL。</translation>
    </message>
    <message>
        <source>A tab can fill the window: double-click its name or press Ctrl+Shift+M.</source>
        <translation>标签页可以占满窗口：双击其名称或按 Ctrl+Shift+M。</translation>
    </message>
    <message>
        <source>4. What each tab answers</source>
        <translation>4. 各标签页回答什么问题</translation>
    </message>
    <message>
        <source>Using it</source>
        <translation>使用方法</translation>
    </message>
    <message>
        <source>Formats</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Traces in object storage and on web servers</source>
        <translation>对象存储和 Web 服务器上的跟踪</translation>
    </message>
    <message>
        <source>Asking questions: SQL, Python and coding agents</source>
        <translation>提问：SQL、Python 和编程智能体</translation>
    </message>
    <message>
        <source>Comparing two runs</source>
        <translation>比较两次运行</translation>
    </message>
    <message>
        <source>Distributed jobs from the command line</source>
        <translation>从命令行分析分布式作业</translation>
    </message>
    <message>
        <source>5. More in the README</source>
        <translation>5. README 中的更多内容</translation>
    </message>
</context>
<context>
    <name>ws::GraphNodeModel</name>
    <message>
        <source>%1 (%2, line %3)</source>
        <translation>%1（%2，第 %3 行）</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Kernel, copy or set</source>
        <translation>内核、拷贝或置值</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Captured at line</source>
        <translation>捕获所在行</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>Share of graph</source>
        <translation>占图比例</translation>
    </message>
</context>
<context>
    <name>ws::GraphTableModel</name>
    <message>
        <source>%1, line %2</source>
        <translation>%1，第 %2 行</translation>
    </message>
    <message>
        <source>graph %1 (no capture recorded)</source>
        <translation>图 %1（未记录捕获）</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>图</translation>
    </message>
    <message>
        <source>Captured at</source>
        <translation>捕获位置</translation>
    </message>
    <message>
        <source>Replays</source>
        <translation>重放次数</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>Mean replay</source>
        <translation>平均重放</translation>
    </message>
    <message>
        <source>Fastest replay</source>
        <translation>最快重放</translation>
    </message>
    <message>
        <source>Slowest replay</source>
        <translation>最慢重放</translation>
    </message>
    <message>
        <source>GPU time</source>
        <translation>GPU 时间</translation>
    </message>
    <message>
        <source>Nodes with capture</source>
        <translation>有捕获信息的节点</translation>
    </message>
</context>
<context>
    <name>ws::GraphsView</name>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>No CUDA graph replays were launched in the selected range.</source>
        <translation>所选范围内没有启动 CUDA 图重放。</translation>
    </message>
    <message>
        <source>No CUDA graph replays in this session. Programs that replay CUDA graphs (torch.cuda.graph, torch.compile with mode=&quot;reduce-overhead&quot;, vLLM, SGLang) show each graph here with its replays and slowest nodes.</source>
        <translation>此会话中没有 CUDA 图重放。重放 CUDA 图的程序（torch.cuda.graph、mode=&quot;reduce-overhead&quot; 的 torch.compile、vLLM、SGLang）会在此列出每个图及其重放和最慢的节点。</translation>
    </message>
    <message>
        <source>%1 of them carry the operator and line of the launch that captured them.</source>
        <translation>其中 %1 带有捕获它们的启动所在的算子和代码行。</translation>
    </message>
    <message>
        <source>Where each node was captured is not in this trace (a Warpscope capture records it): nodes are known by their place in the replay.</source>
        <translation>此跟踪未记录各节点的捕获位置（Warpscope 捕获会记录）：节点按其在重放中的位置识别。</translation>
    </message>
    <message>
        <source>Nodes of graph %1, slowest first (double-click a node to show it on the timeline, its line to open the source)</source>
        <translation>图 %1 的节点，最慢的在前（双击节点在时间线上显示，双击其代码行打开源码）</translation>
    </message>
    <message>
        <source>The graphs are not computed yet.</source>
        <translation>图尚未计算。</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>Writing %1 failed.</source>
        <translation>写入 %1 失败。</translation>
    </message>
    <message>
        <source>Export Graph Nodes as CSV</source>
        <translation>将图节点导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Graphs: %1. Replays: %2. Replayed kernels, copies and sets: %3, taking %4 of GPU time.</source>
        <translation>图：%1。重放：%2。重放的内核、拷贝和置值：%3，占用 %4 GPU 时间。</translation>
    </message>
</context>
<context>
    <name>ws::HeadlineDiffModel</name>
    <message>
        <source>n/a</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>A (baseline)</source>
        <translation>A（基线）</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
</context>
<context>
    <name>ws::ImportReportBanner</name>
    <message>
        <source>Details…</source>
        <translation>详细信息…</translation>
    </message>
    <message>
        <source>Hide this message</source>
        <translation>隐藏此消息</translation>
    </message>
    <message numerus="yes">
        <source>The import skipped or repaired %n item(s).</source>
        <translation>
            <numerusform>导入时跳过或修复了 %n 项。</numerusform>
        </translation>
    </message>
    <message>
        <source>The file ends early (was the job killed while writing?); everything before the cut was imported.</source>
        <translation>文件提前结束（作业是否在写入时被终止？）；截断之前的全部内容均已导入。</translation>
    </message>
    <message>
        <source>Import report</source>
        <translation>导入报告</translation>
    </message>
    <message>
        <source>What the importer skipped or repaired, by kind, with the first examples:</source>
        <translation>导入器跳过或修复的内容（按类型列出，并附前几个示例）：</translation>
    </message>
    <message>
        <source>Kept: %1.</source>
        <translation>已保留：%1。</translation>
    </message>
</context>
<context>
    <name>ws::InferencePanel</name>
    <message>
        <source>Phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Forwards</source>
        <translation>前向次数</translation>
    </message>
    <message>
        <source>Tokens per forward</source>
        <translation>每次前向的 token 数</translation>
    </message>
    <message>
        <source>p50 (ms)</source>
        <translation>p50（毫秒）</translation>
    </message>
    <message>
        <source>p90 (ms)</source>
        <translation>p90（毫秒）</translation>
    </message>
    <message>
        <source>p99 (ms)</source>
        <translation>p99（毫秒）</translation>
    </message>
    <message>
        <source>GPU busy</source>
        <translation>GPU 忙碌</translation>
    </message>
    <message numerus="yes">
        <source>%n forward(s) in %1 request(s) on GPU %2, cut at the LM head (%3)</source>
        <translation>
            <numerusform>GPU %2 上 %1 个请求共 %n 次前向，按 LM head（%3）切分</numerusform>
        </translation>
    </message>
    <message>
        <source>time to first token %1 ms (p50)</source>
        <translation>首 token 延迟 %1 毫秒（p50）</translation>
    </message>
    <message>
        <source>time per output token %1 ms (p50), %2 ms (p99)</source>
        <translation>每个输出 token 耗时 %1 毫秒（p50），%2 毫秒（p99）</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 token/秒</translation>
    </message>
    <message>
        <source>%1 tokens/s per sequence (no shapes give the batch)</source>
        <translation>每个序列 %1 token/秒（没有形状信息给出批大小）</translation>
    </message>
    <message>
        <source>Prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>Decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>Slowest prefill (forward %1)</source>
        <translation>最慢的预填充（第 %1 次前向）</translation>
    </message>
    <message>
        <source>Slowest decode (forward %1)</source>
        <translation>最慢的解码（第 %1 次前向）</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>MBU</source>
        <translation>MBU</translation>
    </message>
    <message>
        <source>Model FLOPs utilization: the forwards&apos; estimated FLOPs over their time at the GPU&apos;s Tensor Core peak (the Roofline tab)</source>
        <translation>模型 FLOPs 利用率：前向传播估算的 FLOPs 除以其时间内 GPU Tensor Core 峰值所能完成的量（见“屋顶线”页）</translation>
    </message>
    <message>
        <source>Memory bandwidth utilization: their estimated bytes over their time at the GPU&apos;s memory bandwidth</source>
        <translation>内存带宽利用率：估算的字节数除以其时间内 GPU 内存带宽所能传输的量</translation>
    </message>
    <message>
        <source>between kernels</source>
        <translation>内核之间</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Why the GPU idles</source>
        <translation>GPU 空闲原因</translation>
    </message>
    <message>
        <source>The phase&apos;s GPU idle time by cause: gaps of 50 us or more as the idle-gap analysis classifies them, and the shorter gaps between kernels (launch overhead)</source>
        <translation>该阶段 GPU 空闲时间按原因划分：50 us 及以上的空闲间隙按空闲间隙分析归类，更短的是内核之间的间隙（启动开销）</translation>
    </message>
</context>
<context>
    <name>ws::JobLoader</name>
    <message>
        <source>no rank could be loaded</source>
        <translation>没有可加载的 rank</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1，%2 {1:?}</translation>
    </message>
    <message>
        <source>%1: no summary files (*.json)</source>
        <translation>%1：没有摘要文件（*.json）</translation>
    </message>
</context>
<context>
    <name>ws::JobPage</name>
    <message>
        <source>Click a communication op to link it across ranks; drag on the ruler to select a range.</source>
        <translation>单击通信操作可在各 rank 间关联它；在标尺上拖动可选择范围。</translation>
    </message>
    <message>
        <source>Distributed</source>
        <translation>分布式</translation>
    </message>
    <message>
        <source>job</source>
        <translation>作业</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n rank(s))</source>
        <translation>
            <numerusform>%1（%n 个 rank）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::JobTimelineView</name>
    <message numerus="yes">
        <source>%n rank(s)</source>
        <translation>
            <numerusform>%n 个 rank</numerusform>
        </translation>
    </message>
    <message>
        <source>step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>步骤 %1</translation>
    </message>
    <message>
        <source>No job</source>
        <translation>没有作业</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source> · clock %1%2</source>
        <translation> · 时钟 %1%2</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>%1 · %2 · in flight %3</source>
        <translation>%1 · %2 · 进行中 %3</translation>
    </message>
    <message>
        <source>size n/a</source>
        <translation>大小未知</translation>
    </message>
    <message>
        <source>%1 #%2 on %3 of %4 ranks · arrival skew %5 · last to arrive: rank %6 · ends within %7</source>
        <translation>%1 #%2，在 %4 个 rank 中的 %3 个上 · 到达偏差 %5 · 最后到达：rank %6 · 结束相差 %7</translation>
    </message>
    <message>
        <source>Set Clock Offset of Rank %1…</source>
        <translation>设置 Rank %1 的时钟偏移…</translation>
    </message>
    <message>
        <source>Clock Offset</source>
        <translation>时钟偏移</translation>
    </message>
    <message>
        <source>Shift rank %1 by (µs, added to its times):</source>
        <translation>将 rank %1 平移（µs，加到其时间上）：</translation>
    </message>
    <message>
        <source>Reset Clock Offsets to Automatic</source>
        <translation>将时钟偏移重置为自动</translation>
    </message>
    <message>
        <source>Expand</source>
        <translation>展开</translation>
    </message>
    <message>
        <source>Collapse</source>
        <translation>折叠</translation>
    </message>
    <message>
        <source>Collapse All Ranks</source>
        <translation>折叠所有 rank</translation>
    </message>
    <message>
        <source>Expand All Ranks</source>
        <translation>展开所有 rank</translation>
    </message>
    <message>
        <source>Zoom to Fit</source>
        <translation>缩放以适应</translation>
    </message>
    <message>
        <source>Compare Rank %1 With</source>
        <translation>将 rank %1 与以下比较</translation>
    </message>
    <message>
        <source>Rank %1 (as the baseline)</source>
        <translation>rank %1（作为基线）</translation>
    </message>
</context>
<context>
    <name>ws::KernelDiffModel</name>
    <message>
        <source>A: %1
B: %2</source>
        <translation>A：%1
B：%2</translation>
    </message>
    <message>
        <source>Kernel (normalized)</source>
        <translation>内核（归一化名称）</translation>
    </message>
    <message>
        <source>Only in</source>
        <translation>仅存在于</translation>
    </message>
    <message>
        <source>Calls A</source>
        <translation>A 调用次数</translation>
    </message>
    <message>
        <source>Calls B</source>
        <translation>B 调用次数</translation>
    </message>
    <message>
        <source>Total A</source>
        <translation>A 总计</translation>
    </message>
    <message>
        <source>Total B</source>
        <translation>B 总计</translation>
    </message>
    <message>
        <source>Δ total</source>
        <translation>Δ 总计</translation>
    </message>
    <message>
        <source>Name in A</source>
        <translation>A 中的名称</translation>
    </message>
    <message>
        <source>Name in B</source>
        <translation>B 中的名称</translation>
    </message>
    <message>
        <source>(no operator)</source>
        <translation>（无算子）</translation>
    </message>
    <message>
        <source>Launched by</source>
        <translation>启动算子</translation>
    </message>
</context>
<context>
    <name>ws::KernelGroupModel</name>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>网格</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>线程块</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>% of GPU time</source>
        <translation>占 GPU 时间 %</translation>
    </message>
    <message>
        <source>Mean blocks per SM</source>
        <translation>平均每 SM 线程块数</translation>
    </message>
    <message>
        <source>Mean est. achieved occupancy (%)</source>
        <translation>平均估计实际占用率 (%)</translation>
    </message>
    <message>
        <source>Tensor Cores</source>
        <translation>Tensor Core</translation>
    </message>
</context>
<context>
    <name>ws::KernelPieChart</name>
    <message>
        <source>Top kernels by GPU time</source>
        <translation>GPU 时间最多的内核</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>%1 (%2 %)</source>
        <translation>%1（%2 %）</translation>
    </message>
</context>
<context>
    <name>ws::KernelTableModel</name>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Direction</source>
        <translation>方向</translation>
    </message>
    <message>
        <source>Duration (ns)</source>
        <translation>时长 (ns)</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Stream</source>
        <translation>流</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>网格</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>线程块</translation>
    </message>
    <message>
        <source>Registers</source>
        <translation>寄存器</translation>
    </message>
    <message>
        <source>Shared memory (B)</source>
        <translation>共享内存 (B)</translation>
    </message>
    <message>
        <source>Blocks per SM</source>
        <translation>每 SM 线程块数</translation>
    </message>
    <message>
        <source>Est. achieved occupancy (%)</source>
        <translation>估计实际占用率 (%)</translation>
    </message>
    <message>
        <source>Tensor Cores</source>
        <translation>Tensor Core</translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <source>Input types</source>
        <translation>输入类型</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>浮点运算数</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节数</translation>
    </message>
    <message>
        <source>TFLOP/s</source>
        <translation>TFLOP/s</translation>
    </message>
    <message>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>图</translation>
    </message>
    <message>
        <source>Graph node</source>
        <translation>图节点</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>FLOP/byte</source>
        <translation>FLOP/字节</translation>
    </message>
    <message>
        <source>Bound</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <source>ncu duration</source>
        <translation>ncu 时长</translation>
    </message>
    <message>
        <source>ncu SM %</source>
        <translation>ncu SM %</translation>
    </message>
    <message>
        <source>ncu memory %</source>
        <translation>ncu 内存 %</translation>
    </message>
    <message>
        <source>ncu bound</source>
        <translation>ncu 瓶颈</translation>
    </message>
</context>
<context>
    <name>ws::KernelTableView</name>
    <message>
        <source>Filter by kernel name</source>
        <translation>按内核名称筛选</translation>
    </message>
    <message>
        <source>Every call</source>
        <translation>每次调用</translation>
    </message>
    <message>
        <source>Grouped by kernel</source>
        <translation>按内核分组</translation>
    </message>
    <message>
        <source>Grouped by kernel, operator, grid and block</source>
        <translation>按内核、算子、网格和线程块分组</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>View:</source>
        <translation>视图：</translation>
    </message>
    <message>
        <source>Reading kernels…</source>
        <translation>正在读取内核…</translation>
    </message>
    <message>
        <source>%1 kernels in the selected range (%2)</source>
        <translation>所选范围内 %1 个内核（%2）</translation>
    </message>
    <message>
        <source>%1 kernels</source>
        <translation>%1 个内核</translation>
    </message>
    <message>
        <source>The kernel table is not built yet.</source>
        <translation>内核表尚未生成。</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>Writing %1 failed.</source>
        <translation>写入 %1 失败。</translation>
    </message>
    <message>
        <source>Export Kernels as CSV</source>
        <translation>将内核导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Copy Nsight Compute command</source>
        <translation>复制 Nsight Compute 命令</translation>
    </message>
    <message>
        <source>Attach Nsight Compute results…</source>
        <translation>附加 Nsight Compute 结果…</translation>
    </message>
    <message>
        <source>Nsight Compute&apos;s CSV exports or .ncu-rep: what it measured on the calls it profiled, as ncu columns</source>
        <translation>Nsight Compute 的 CSV 导出或 .ncu-rep：它对所分析调用的测量结果，作为 ncu 列</translation>
    </message>
    <message>
        <source>Attach Nsight Compute results</source>
        <translation>附加 Nsight Compute 结果</translation>
    </message>
    <message>
        <source>Nsight Compute results (*.csv *.csv.gz *.ncu-rep);;All files (*)</source>
        <translation>Nsight Compute 结果 (*.csv *.csv.gz *.ncu-rep);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Nsight Compute</source>
        <translation>Nsight Compute</translation>
    </message>
    <message>
        <source>The kernel table is not built.</source>
        <translation>内核表尚未构建。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message numerus="yes">
        <source>None of the %n launch(es) Nsight Compute profiled has a kernel of the same function name in this session.</source>
        <translation>
            <numerusform>Nsight Compute 分析的 %n 次启动在此会话中都没有同一函数名的内核。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::LiveCapture</name>
    <message>
        <source>Live: %1</source>
        <translation>实时：%1</translation>
    </message>
    <message>
        <source>Recording into %1; the view follows the newest %2 s</source>
        <translation>正在记录到 %1；视图跟随最新的 %2 秒</translation>
    </message>
</context>
<context>
    <name>ws::MainWindow</name>
    <message>
        <source>Warpscope</source>
        <translation>Warpscope</translation>
    </message>
    <message>
        <source>Ready. Open a trace with Ctrl+O or drop files here.</source>
        <translation>就绪。按 Ctrl+O 打开跟踪文件，或将文件拖放到此处。</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>New &amp;Capture…</source>
        <translation>新建采集(&amp;C)…</translation>
    </message>
    <message>
        <source>Session &amp;Library</source>
        <translation>会话库(&amp;L)</translation>
    </message>
    <message>
        <source>Session &amp;Summary as JSON…</source>
        <translation>会话摘要 JSON(&amp;S)…</translation>
    </message>
    <message>
        <source>Save the headline numbers of the current session as JSON</source>
        <translation>将当前会话的主要数据保存为 JSON</translation>
    </message>
    <message>
        <source>&amp;Close Session</source>
        <translation>关闭会话(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Full Screen</source>
        <translation>全屏(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Next Session</source>
        <translation>下一个会话(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous Session</source>
        <translation>上一个会话(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Warpscope</source>
        <translation>关于 Warpscope(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>Open &amp;Sample Session</source>
        <translation>打开示例会话(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;%1 %2</source>
        <translation>&amp;%1 %2</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>没有最近打开的文件</translation>
    </message>
    <message>
        <source>&amp;Clear Menu</source>
        <translation>清除菜单(&amp;C)</translation>
    </message>
    <message>
        <source>%1 — Warpscope</source>
        <translation>%1 — Warpscope</translation>
    </message>
    <message>
        <source>%1 events · %2 tracks · %3</source>
        <translation>%1 个事件 · %2 条轨道 · %3</translation>
    </message>
    <message>
        <source>%1: no such file</source>
        <translation>%1：文件不存在</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Opening trace</source>
        <translation>正在打开跟踪</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>正在导入 %1…</translation>
    </message>
    <message>
        <source>Opened %1 in %2 ms</source>
        <translation>已打开 %1，用时 %2 毫秒</translation>
    </message>
    <message>
        <source>Could not open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Could not open trace</source>
        <translation>无法打开跟踪</translation>
    </message>
    <message>
        <source>Cancelled opening %1</source>
        <translation>已取消打开 %1</translation>
    </message>
    <message>
        <source>Open Trace</source>
        <translation>打开跟踪</translation>
    </message>
    <message>
        <source>Export Session Summary</source>
        <translation>导出会话摘要</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>About Warpscope</source>
        <translation>关于 Warpscope</translation>
    </message>
    <message>
        <source>&amp;Find Slices…</source>
        <translation>查找片段(&amp;F)…</translation>
    </message>
    <message>
        <source>Search the timeline by name or regular expression</source>
        <translation>按名称或正则表达式搜索时间线</translation>
    </message>
    <message>
        <source>Zoom to &amp;Fit</source>
        <translation>缩放至全部(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Collapse All Groups</source>
        <translation>折叠所有分组(&amp;C)</translation>
    </message>
    <message>
        <source>%1 is open, but it could not be stored in the session library: %2</source>
        <translation>%1 已打开，但无法存入会话库：%2</translation>
    </message>
    <message>
        <source>Stored sessions: open, rename, delete, export, import</source>
        <translation>已存储的会话：打开、重命名、删除、导出、导入</translation>
    </message>
    <message>
        <source>Opened %1 from the session library in %2 ms</source>
        <translation>已从会话库打开 %1，用时 %2 毫秒</translation>
    </message>
    <message>
        <source>Run a program under CUPTI and open what it did on the GPU</source>
        <translation>在 CUPTI 下运行程序，并打开它在 GPU 上的活动</translation>
    </message>
    <message>
        <source>Open Capture &amp;Folder…</source>
        <translation>打开采集文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Open Capture Folder</source>
        <translation>打开采集文件夹</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>the job</source>
        <translation>该作业</translation>
    </message>
    <message>
        <source>Opening job: %1…</source>
        <translation>正在打开作业：%1…</translation>
    </message>
    <message>
        <source>Open &amp;Job Folder…</source>
        <translation>打开作业文件夹(&amp;J)…</translation>
    </message>
    <message>
        <source>Open Job Folder</source>
        <translation>打开作业文件夹</translation>
    </message>
    <message>
        <source>Open Job &amp;Files…</source>
        <translation>打开作业文件(&amp;F)…</translation>
    </message>
    <message>
        <source>Open Job Files (one trace per rank)</source>
        <translation>打开作业文件（每个 rank 一个跟踪）</translation>
    </message>
    <message>
        <source>Open Job &amp;Summaries…</source>
        <translation>打开作业摘要(&amp;S)…</translation>
    </message>
    <message>
        <source>Open Job Summaries</source>
        <translation>打开作业摘要</translation>
    </message>
    <message numerus="yes">
        <source>Opened a job of %n rank(s) in %1 ms</source>
        <translation>
            <numerusform>已在 %1 毫秒内打开包含 %n 个 rank 的作业</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Loading job %1…</source>
        <translation>正在加载作业 %1…</translation>
    </message>
    <message>
        <source>Opening job</source>
        <translation>正在打开作业</translation>
    </message>
    <message>
        <source>Opening job %1…</source>
        <translation>正在打开作业 %1…</translation>
    </message>
    <message>
        <source>Open &amp;URL…</source>
        <translation>打开 &amp;URL…</translation>
    </message>
    <message>
        <source>Open a trace from S3, Google Cloud Storage, Azure Blob Storage or a web server</source>
        <translation>从 S3、Google Cloud Storage、Azure Blob Storage 或 Web 服务器打开跟踪</translation>
    </message>
    <message>
        <source>&amp;Compare…</source>
        <translation>比较(&amp;C)…</translation>
    </message>
    <message>
        <source>Compare two open sessions: what got faster, what got slower</source>
        <translation>比较两个已打开的会话：哪些变快了，哪些变慢了</translation>
    </message>
    <message>
        <source>%1 vs %2</source>
        <translation>%1 对比 %2</translation>
    </message>
    <message>
        <source>Compare: %1 (B) against %2 (A, the baseline)</source>
        <translation>比较：%1（B）对比 %2（A，基线）</translation>
    </message>
    <message>
        <source>Compare Sessions</source>
        <translation>比较会话</translation>
    </message>
    <message>
        <source>A (baseline):</source>
        <translation>A（基线）：</translation>
    </message>
    <message>
        <source>B (compared):</source>
        <translation>B（被比较）：</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>What changed from A to B: step time, utilization, operators, kernels.</source>
        <translation>从 A 到 B 的变化：步时间、利用率、算子、内核。</translation>
    </message>
    <message>
        <source>Compare with</source>
        <translation>比较对象</translation>
    </message>
    <message>
        <source>%1 (as the baseline)</source>
        <translation>%1（作为基线）</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message numerus="yes">
        <source>Removed %n unfinished session(s) left by imports that were interrupted</source>
        <translation>
            <numerusform>已删除被中断的导入留下的 %n 个未完成会话</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Moved %n unreadable session file(s) to %1</source>
        <translation>
            <numerusform>已将 %n 个无法读取的会话文件移至 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Chrome Trace (JSON)…</source>
        <translation>&amp;Chrome 跟踪（JSON）…</translation>
    </message>
    <message>
        <source>Save the session, or the range selected on the timeline, as Chrome trace JSON (Perfetto, chrome://tracing)</source>
        <translation>将会话或时间线上选中的范围保存为 Chrome 跟踪 JSON（Perfetto、chrome://tracing）</translation>
    </message>
    <message>
        <source>Summary &amp;Tables (nsys stats CSV)…</source>
        <translation>汇总&amp;表（nsys stats CSV）…</translation>
    </message>
    <message>
        <source>Save kernel, API and memory operation summaries as CSV files, as nsys stats writes them</source>
        <translation>按 nsys stats 的格式将内核、API 和内存操作汇总保存为 CSV 文件</translation>
    </message>
    <message>
        <source>Export the Selected Range as Chrome Trace</source>
        <translation>将选中范围导出为 Chrome 跟踪</translation>
    </message>
    <message>
        <source>Export Session as Chrome Trace</source>
        <translation>将会话导出为 Chrome 跟踪</translation>
    </message>
    <message>
        <source>Chrome trace JSON (*.json)</source>
        <translation>Chrome 跟踪 JSON (*.json)</translation>
    </message>
    <message>
        <source>Exporting %1…</source>
        <translation>正在导出 %1…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Saved %1 (%2 events)</source>
        <translation>已保存 %1（%2 个事件）</translation>
    </message>
    <message>
        <source>Folder for the Summary Tables</source>
        <translation>汇总表所在文件夹</translation>
    </message>
    <message numerus="yes">
        <source>Saved %n summary tables in %1</source>
        <translation>
            <numerusform>已在 %1 中保存 %n 个汇总表</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 events over %2</source>
        <translation>%1 个事件，跨度 %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message numerus="yes">
        <source>Could not open %n file(s):</source>
        <translation>
            <numerusform>无法打开 %n 个文件：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… and %n more (see the details)</source>
        <translation>
            <numerusform>……另有 %n 个（见详细信息）</numerusform>
        </translation>
    </message>
    <message>
        <source>Converting %1 with Nsight Systems (nsys export)…</source>
        <translation>正在用 Nsight Systems 转换 %1（nsys export）…</translation>
    </message>
    <message>
        <source>Traces, captures and sessions (*.json *.json.gz *.json.zst *.gz *.zst *.sqlite *.nsys-rep *.qdrep *.nvvp *.sql *.pb *.wscap *.warpscope);;All files (*)</source>
        <translation>跟踪、采集与会话 (*.json *.json.gz *.json.zst *.gz *.zst *.sqlite *.nsys-rep *.qdrep *.nvvp *.sql *.pb *.wscap *.warpscope);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open Remote Folder (&amp;SSH)…</source>
        <translation>打开远程文件夹（SSH）(&amp;S)…</translation>
    </message>
    <message>
        <source>List the traces and captures in a folder of a machine your ssh reaches, and open one</source>
        <translation>列出您的 ssh 能连接的机器上某个文件夹中的跟踪和采集，并打开其中之一</translation>
    </message>
    <message>
        <source>Open Trace with Memory &amp;Snapshot…</source>
        <translation>打开跟踪及内存快照(&amp;S)…</translation>
    </message>
    <message>
        <source>Traces and captures (*.json *.gz *.wscap *.sqlite *.pb *.warpscope);;All files (*)</source>
        <translation>跟踪与采集 (*.json *.gz *.wscap *.sqlite *.pb *.warpscope);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Memory Snapshot of the Same Run</source>
        <translation>同一次运行的内存快照</translation>
    </message>
    <message>
        <source>PyTorch memory snapshots (*.pickle *.pkl *.gz);;All files (*)</source>
        <translation>PyTorch 内存快照 (*.pickle *.pkl *.gz);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open a trace or capture with the PyTorch memory snapshot of the same run on its time axis</source>
        <translation>打开跟踪或采集，并将同一次运行的 PyTorch 内存快照放在其时间轴上</translation>
    </message>
    <message>
        <source>Open trace, capture, memory snapshot or session files (the welcome page lists every format)</source>
        <translation>打开跟踪、采集、内存快照或会话文件（欢迎页列出了所有格式）</translation>
    </message>
    <message>
        <source>&amp;Getting Started</source>
        <translation>入门(&amp;G)</translation>
    </message>
    <message>
        <source>How to record a program or open a trace, and what each tab answers</source>
        <translation>如何记录程序或打开跟踪，以及各标签页回答什么问题</translation>
    </message>
    <message>
        <source>Traces, captures and sessions (*.json *.json.gz *.json.zst *.gz *.zst *.sqlite *.nsys-rep *.qdrep *.nvvp *.sql *.pb *.wscap *.pickle *.pkl *.warpscope);;All files (*)</source>
        <translation>跟踪、采集和会话 (*.json *.json.gz *.json.zst *.gz *.zst *.sqlite *.nsys-rep *.qdrep *.nvvp *.sql *.pb *.wscap *.pickle *.pkl *.warpscope);;所有文件 (*)</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Warpscope %1&lt;/h3&gt;&lt;p&gt;A native profiler viewer for GPU and deep-learning workloads: see where GPU time goes, why the GPU idles, where memory peaks, and which line of code is responsible.&lt;/p&gt;&lt;p&gt;Built with Qt %2. Reads: %3.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Warpscope %1&lt;/h3&gt;&lt;p&gt;面向 GPU 和深度学习工作负载的原生性能分析查看器：查看 GPU 时间花在哪里、GPU 为何空闲、内存峰值在哪里，以及哪一行代码负责。&lt;/p&gt;&lt;p&gt;基于 Qt %2 构建。可读取：%3。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>ws::MemoryAllocationModel</name>
    <message>
        <source>Leak (never freed)</source>
        <translation>泄漏（从未释放）</translation>
    </message>
    <message>
        <source>Allocated before the trace</source>
        <translation>在跟踪开始前分配</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>Still allocated at the end of the trace</source>
        <translation>跟踪结束时仍未释放</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Allocated at</source>
        <translation>分配时间</translation>
    </message>
    <message>
        <source>Freed at</source>
        <translation>释放时间</translation>
    </message>
    <message>
        <source>Lifetime</source>
        <translation>生存期</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>ws::MemoryChart</name>
    <message>
        <source>Allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>Reserved</source>
        <translation>已保留</translation>
    </message>
    <message>
        <source>Peak allocated</source>
        <translation>分配峰值</translation>
    </message>
    <message>
        <source>Time since trace start (ms)</source>
        <translation>自跟踪开始的时间 (ms)</translation>
    </message>
    <message>
        <source>KiB</source>
        <translation>KiB</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>Allocated since trace start (no totals in trace)</source>
        <translation>自跟踪开始的分配量（跟踪中没有总量）</translation>
    </message>
    <message>
        <source>Peak %1</source>
        <translation>峰值 %1</translation>
    </message>
    <message>
        <source>Capacity %1</source>
        <translation>容量 %1</translation>
    </message>
    <message>
        <source>Capacity %1 (above the plot)</source>
        <translation>容量 %1（在图表上方）</translation>
    </message>
</context>
<context>
    <name>ws::MemoryOpStatsModel</name>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Size Increase</source>
        <translation>大小增量</translation>
    </message>
    <message>
        <source>Self Size Increase</source>
        <translation>自身大小增量</translation>
    </message>
    <message>
        <source>Allocation Count</source>
        <translation>分配次数</translation>
    </message>
    <message>
        <source>Self Allocation Count</source>
        <translation>自身分配次数</translation>
    </message>
    <message>
        <source>Allocation Size</source>
        <translation>分配大小</translation>
    </message>
    <message>
        <source>Self Allocation Size</source>
        <translation>自身分配大小</translation>
    </message>
</context>
<context>
    <name>ws::MemoryView</name>
    <message>
        <source>Memory view: computed when shown.</source>
        <translation>内存视图：显示时计算。</translation>
    </message>
    <message>
        <source>Double-click an allocation to select its lifetime on the timeline</source>
        <translation>双击一次分配，在时间线上选中其生存期</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>分配</translation>
    </message>
    <message>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Computing the memory view…</source>
        <translation>正在计算内存视图…</translation>
    </message>
    <message>
        <source>No memory events in this trace.
Record with profile_memory=True (PyTorch), --cuda-memory-usage=true (Nsight Systems) or the memory activity (Warpscope capture).</source>
        <translation>此跟踪中没有内存事件。
请使用 profile_memory=True（PyTorch）、--cuda-memory-usage=true（Nsight Systems）或内存活动（Warpscope 采集）进行记录。</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>Peak allocated %1 at %2</source>
        <translation>分配峰值 %1，位于 %2</translation>
    </message>
    <message>
        <source>Peak allocated: no records in the selection</source>
        <translation>分配峰值：所选范围内没有记录</translation>
    </message>
    <message>
        <source>(allocated since the trace began: the trace has no allocator totals)</source>
        <translation>（自跟踪开始的分配量：跟踪中没有分配器总量）</translation>
    </message>
    <message>
        <source>Reserved: not in this trace</source>
        <translation>已保留：此跟踪中没有</translation>
    </message>
    <message>
        <source>Peak reserved %1</source>
        <translation>保留峰值 %1</translation>
    </message>
    <message>
        <source>Capacity %1</source>
        <translation>容量 %1</translation>
    </message>
    <message>
        <source> (peak uses %1)</source>
        <translation>（峰值占用 %1）</translation>
    </message>
    <message>
        <source>Capacity: not in this trace</source>
        <translation>容量：此跟踪中没有</translation>
    </message>
    <message>
        <source>%1 allocations, %2 frees, %3 never freed (leaks), %4 frees of earlier allocations</source>
        <translation>%1 次分配，%2 次释放，%3 次从未释放（泄漏），%4 次释放了更早的分配</translation>
    </message>
    <message>
        <source>in the selection (%1)</source>
        <translation>在所选范围内（%1）</translation>
    </message>
    <message>
        <source>Bands by trace order</source>
        <translation>色带按跟踪顺序</translation>
    </message>
    <message>
        <source>Bands by time</source>
        <translation>色带按时间</translation>
    </message>
    <message>
        <source>The active memory timeline&apos;s x axis: one step per allocation or free, as memory_viz draws it, or time, shared with the timeline&apos;s selection</source>
        <translation>活动内存时间线的 x 轴：每次分配或释放一格（与 memory_viz 相同），或按时间（与时间线的选区共享）</translation>
    </message>
    <message>
        <source>Active memory</source>
        <translation>活动内存</translation>
    </message>
    <message>
        <source>Allocator state</source>
        <translation>分配器状态</translation>
    </message>
    <message>
        <source>Out of memory</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <source>the allocation of %1 at 0x%2</source>
        <translation>位于 0x%2 的 %1 分配</translation>
    </message>
    <message>
        <source>%1, made by %2</source>
        <translation>%1，由 %2 分配</translation>
    </message>
</context>
<context>
    <name>ws::NewCaptureDialog</name>
    <message>
        <source>New Capture</source>
        <translation>新建采集</translation>
    </message>
    <message>
        <source>The program to run, found in PATH like a shell would (never run through a shell)</source>
        <translation>要运行的程序，像 shell 一样在 PATH 中查找（但从不经由 shell 运行）</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Program to Capture</source>
        <translation>要采集的程序</translation>
    </message>
    <message>
        <source>e.g. train.py --epochs 1 (quote arguments with spaces)</source>
        <translation>例如 train.py --epochs 1（含空格的参数请加引号）</translation>
    </message>
    <message>
        <source>current directory</source>
        <translation>当前目录</translation>
    </message>
    <message>
        <source>Working Directory</source>
        <translation>工作目录</translation>
    </message>
    <message>
        <source>NAME=VALUE, one per line (added to the inherited environment)</source>
        <translation>NAME=VALUE，每行一个（追加到继承的环境中）</translation>
    </message>
    <message>
        <source>optional; names the capture and its session</source>
        <translation>可选；用作采集及其会话的名称</translation>
    </message>
    <message>
        <source>&amp;Program:</source>
        <translation>程序(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Arguments:</source>
        <translation>参数(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Working directory:</source>
        <translation>工作目录(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Environment:</source>
        <translation>环境变量(&amp;E)：</translation>
    </message>
    <message>
        <source>Session &amp;name:</source>
        <translation>会话名称(&amp;N)：</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>记录内容</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Memory copies</source>
        <translation>内存拷贝</translation>
    </message>
    <message>
        <source>Memory sets</source>
        <translation>内存设置</translation>
    </message>
    <message>
        <source>CUDA driver API (all calls)</source>
        <translation>CUDA 驱动 API（全部调用）</translation>
    </message>
    <message>
        <source>Synchronization</source>
        <translation>同步</translation>
    </message>
    <message>
        <source>Allocations and frees</source>
        <translation>内存分配与释放</translation>
    </message>
    <message>
        <source>NVTX ranges and marks</source>
        <translation>NVTX 区间与标记</translation>
    </message>
    <message>
        <source>CUPTI overhead</source>
        <translation>CUPTI 开销</translation>
    </message>
    <message>
        <source>GPU metrics (NVML: power, clocks, utilization, memory, temperature)</source>
        <translation>GPU 指标（NVML：功耗、频率、利用率、显存、温度）</translation>
    </message>
    <message>
        <source>PM sampling (SM, tensor and DRAM activity; needs profiling permission)</source>
        <translation>PM 采样（SM、张量核与 DRAM 活动；需要性能分析权限）</translation>
    </message>
    <message>
        <source>External correlation ids</source>
        <translation>外部关联 ID</translation>
    </message>
    <message>
        <source>Query-only API calls (cudaGetDevice, …)</source>
        <translation>仅查询类 API 调用（cudaGetDevice 等）</translation>
    </message>
    <message>
        <source> Hz</source>
        <translation> Hz</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Metric &amp;sampling rate:</source>
        <translation>指标采样率(&amp;S)：</translation>
    </message>
    <message>
        <source>Start &amp;delay:</source>
        <translation>启动延迟(&amp;D)：</translation>
    </message>
    <message>
        <source>D&amp;uration limit:</source>
        <translation>时长上限(&amp;U)：</translation>
    </message>
    <message>
        <source>&amp;Start Capture</source>
        <translation>开始采集(&amp;S)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Enter the program to capture.</source>
        <translation>请输入要采集的程序。</translation>
    </message>
    <message>
        <source>Choose at least one kind of activity to record.</source>
        <translation>请至少选择一种要记录的活动。</translation>
    </message>
    <message>
        <source>Capture is not available in this build: the CUPTI injection library (libwarpscope_inject.so) was not found. Build Warpscope with the CUDA toolkit, or set WARPSCOPE_INJECT_LIBRARY to the library&apos;s path.</source>
        <translation>此版本无法采集：未找到 CUPTI 注入库（libwarpscope_inject.so）。请使用 CUDA 工具包构建 Warpscope，或将 WARPSCOPE_INJECT_LIBRARY 设置为该库的路径。</translation>
    </message>
    <message>
        <source>No CUDA driver on this machine (%1). Capture needs an NVIDIA GPU with its driver installed.</source>
        <translation>此计算机上没有 CUDA 驱动（%1）。采集需要安装了驱动的 NVIDIA GPU。</translation>
    </message>
    <message>
        <source>The working directory %1 does not exist.</source>
        <translation>工作目录 %1 不存在。</translation>
    </message>
    <message>
        <source>Program not found: %1. Check the name, or give its full path.</source>
        <translation>找不到程序：%1。请检查名称，或提供完整路径。</translation>
    </message>
    <message>
        <source>The arguments cannot be split into words: %1.</source>
        <translation>无法将参数拆分为单词：%1。</translation>
    </message>
    <message>
        <source>Environment line %1 is not NAME=VALUE: %2</source>
        <translation>环境变量第 %1 行不是 NAME=VALUE 格式：%2</translation>
    </message>
    <message>
        <source>Cannot create the capture folder: %1</source>
        <translation>无法创建采集文件夹：%1</translation>
    </message>
    <message>
        <source>Could not start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>&amp;Deploy the capture tools when the host has none</source>
        <translation>主机上没有采集工具时部署(&amp;D)</translation>
    </message>
    <message>
        <source>Copies warpscope-capture, wscap-dump and the injection library of this installation into the host&apos;s ~/.cache/warpscope/bin before capturing, when the host has no warpscope-capture.</source>
        <translation>当主机上没有 warpscope-capture 时，在采集前把本安装的 warpscope-capture、wscap-dump 和注入库复制到主机的 ~/.cache/warpscope/bin。</translation>
    </message>
    <message>
        <source>Cannot deploy to %1: %2</source>
        <translation>无法部署到 %1：%2</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Where the program runs: this computer, or an SSH host (from ~/.ssh/config, or type user@host). The host needs warpscope-capture and a CUDA driver; your own ssh keys, agent and known_hosts are used, and no password is asked or kept.</source>
        <translation>程序运行的位置：本机，或一台 SSH 主机（来自 ~/.ssh/config，或输入 user@host）。该主机需要 warpscope-capture 和 CUDA 驱动；使用您自己的 ssh 密钥、代理和 known_hosts，不会询问或保存密码。</translation>
    </message>
    <message>
        <source>&amp;Target:</source>
        <translation>目标(&amp;T)：</translation>
    </message>
    <message>
        <source>Stopping %1 on %2…</source>
        <translation>正在停止 %2 上的 %1…</translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation>正在检查 %1…</translation>
    </message>
    <message>
        <source>Could not run ssh: %1</source>
        <translation>无法运行 ssh：%1</translation>
    </message>
    <message>
        <source>Capturing %1 on %2 into %3…</source>
        <translation>正在 %2 上采集 %1，写入 %3…</translation>
    </message>
    <message>
        <source>%1 (%2 stream(s) arrived in %3)</source>
        <translation>%1（%2 个数据流已到达 %3）</translation>
    </message>
    <message>
        <source>Capturing %1 into %2…</source>
        <translation>正在采集 %1，写入 %2…</translation>
    </message>
    <message>
        <source>%1 s · %2 stream(s) · %3 records · %4 MB · %5 dropped</source>
        <translation>%1 秒 · %2 个数据流 · %3 条记录 · %4 MB · 丢弃 %5 条</translation>
    </message>
    <message>
        <source>Stopping %1…</source>
        <translation>正在停止 %1…</translation>
    </message>
    <message>
        <source>killed by signal %1</source>
        <translation>被信号 %1 终止</translation>
    </message>
    <message>
        <source>exit status %1</source>
        <translation>退出状态 %1</translation>
    </message>
    <message>
        <source>Stopped before %1 initialized CUDA: nothing was captured.</source>
        <translation>在 %1 初始化 CUDA 之前已停止：未采集到任何内容。</translation>
    </message>
    <message>
        <source>%1 exited at once (%2) before it initialized CUDA: nothing was captured. Check the program, its arguments and its working directory.</source>
        <translation>%1 在初始化 CUDA 之前就立即退出了（%2）：未采集到任何内容。请检查程序、参数及工作目录。</translation>
    </message>
    <message>
        <source>%1 ended (%2) without initializing CUDA, or it removed CUDA_INJECTION64_PATH from its environment: nothing was captured.</source>
        <translation>%1 已结束（%2），但从未初始化 CUDA，或从其环境中移除了 CUDA_INJECTION64_PATH：未采集到任何内容。</translation>
    </message>
    <message>
        <source>Capture finished (%1): %2 stream(s), %3 records, %4 dropped.</source>
        <translation>采集完成（%1）：%2 个数据流，%3 条记录，丢弃 %4 条。</translation>
    </message>
    <message>
        <source>GPU performance counters are restricted to admin users (ERR_NVGPUCTRPERM), so what needed them was skipped. Fix: run as root, or load the NVIDIA driver with NVreg_RestrictProfilingToAdminUsers=0 (https://developer.nvidia.com/ERR_NVGPUCTRPERM).</source>
        <translation>GPU 性能计数器仅限管理员用户使用（ERR_NVGPUCTRPERM），因此跳过了需要它们的部分。解决方法：以 root 身份运行，或以 NVreg_RestrictProfilingToAdminUsers=0 加载 NVIDIA 驱动（https://developer.nvidia.com/ERR_NVGPUCTRPERM）。</translation>
    </message>
    <message>
        <source>Capture problem: %1</source>
        <translation>采集问题：%1</translation>
    </message>
    <message>
        <source>Native call stacks at kernel launches (file:line with debug info; slows launches)</source>
        <translation>内核启动时的原生调用栈（有调试信息时给出文件:行；会减慢启动）</translation>
    </message>
    <message>
        <source>addr2line was not found: native call stacks show module+offset.</source>
        <translation>未找到 addr2line：原生调用栈显示为模块+偏移。</translation>
    </message>
    <message>
        <source>Resolving native call stacks to file and line…</source>
        <translation>正在将原生调用栈解析为文件和行号…</translation>
    </message>
    <message>
        <source>operators (PyTorch&apos;s ITT range per operator)</source>
        <translation>算子（PyTorch 自带的每算子 ITT 范围）</translation>
    </message>
    <message>
        <source>operators and input shapes (NVTX range per operator)</source>
        <translation>算子和输入形状（每个算子一个 NVTX 范围）</translation>
    </message>
    <message>
        <source>PyTorch &amp;operators:</source>
        <translation>PyTorch 算子(&amp;O)：</translation>
    </message>
    <message>
        <source>Host CPU and memory (the program and its DataLoader workers, from /proc at the metric rate)</source>
        <translation>主机 CPU 和内存（程序及其 DataLoader 工作进程，按指标采样率从 /proc 读取）</translation>
    </message>
    <message>
        <source>NCCL collectives: sizes, data types and communicators (NCCL 2.28 or newer)</source>
        <translation>NCCL 集合通信：大小、数据类型和通信器（NCCL 2.28 或更新版本）</translation>
    </message>
    <message>
        <source>Python call stacks of launches, copies and allocations (read at each CUDA call; up to 1.16x of a step)</source>
        <translation>启动、拷贝和分配时的 Python 调用栈（在每次 CUDA 调用时读取；最多为训练步的 1.16 倍）</translation>
    </message>
    <message>
        <source>automatic (the repeating launch pattern)</source>
        <translation>自动（重复的启动模式）</translation>
    </message>
    <message>
        <source>For Python 3.12+ programs: every call of the function with this name (train_step, or a qualified name such as Trainer.step) is one training step in the Overview. Costs one event per call of that function; records NVTX.</source>
        <translation>适用于 Python 3.12+ 程序：每次调用该名称的函数（train_step，或限定名如 Trainer.step）在概览中算作一个训练步。每次调用该函数产生一个事件的开销；会记录 NVTX。</translation>
    </message>
    <message>
        <source>Step &amp;function:</source>
        <translation>步函数(&amp;F)：</translation>
    </message>
    <message>
        <source>Cannot prepare the Python start-up hook: %1</source>
        <translation>无法准备 Python 启动钩子：%1</translation>
    </message>
    <message>
        <source>Python stack samples of every thread, 1000 per second (what the host does between CUDA calls; read from a thread of its own)</source>
        <translation>每个线程的 Python 栈采样，每秒 1000 次（主机在 CUDA 调用之间做了什么；由独立线程读取）</translation>
    </message>
    <message>
        <source>For PyTorch programs: which operator launched each kernel, with no change to the program (PyTorch&apos;s own range per operator, switched on at start-up). Operators are recorded while the launches are new (the first steps, a new phase); a later launch takes the operator of the same launch before. With Python call stacks 1.0-1.15x of a training step, against torch.profiler&apos;s 1.2-1.9x. Shapes record every operator (1.5x or more). Records NVTX.</source>
        <translation>适用于 PyTorch 程序：每个内核由哪个算子启动，无需修改程序（PyTorch 自身为每个算子提供的区间，启动时开启）。算子在启动序列为新时记录（最初几步、新的阶段）；之后的启动沿用先前相同启动的算子。连同 Python 调用栈约为训练步的 1.0-1.15 倍，torch.profiler 为 1.2-1.9 倍。记录形状时会记录每个算子（1.5 倍或更多）。会记录 NVTX。</translation>
    </message>
    <message>
        <source>Kernel launches, copies and waits (at the driver: every library&apos;s)</source>
        <translation>内核启动、复制与等待（在驱动层记录：涵盖所有库）</translation>
    </message>
    <message>
        <source>CUDA runtime API (up to 1 µs more per CUDA call)</source>
        <translation>CUDA 运行时 API（每次 CUDA 调用最多多 1 微秒）</translation>
    </message>
    <message>
        <source>Only between cudaProfilerStart and cudaProfilerStop</source>
        <translation>仅在 cudaProfilerStart 与 cudaProfilerStop 之间</translation>
    </message>
    <message>
        <source>Records only while the program is between its calls of cudaProfilerStart and cudaProfilerStop (torch.cuda.profiler.start() and stop()), as often as it makes them. Outside them the capture costs almost nothing. Nothing is recorded if the program never calls cudaProfilerStart.</source>
        <translation>仅在程序调用 cudaProfilerStart 与 cudaProfilerStop（torch.cuda.profiler.start() 与 stop()）之间时记录，可多次开始和停止。在这些区间之外，采集几乎没有开销。若程序从不调用 cudaProfilerStart，则不记录任何内容。</translation>
    </message>
    <message>
        <source>Capture &amp;range:</source>
        <translation>采集区间(&amp;R):</translation>
    </message>
    <message>
        <source>CUDA graphs: where each node was captured, so every replay has its operators and lines</source>
        <translation>CUDA 图：记录每个节点的捕获位置，使每次重放都带有其算子和代码行</translation>
    </message>
    <message>
        <source>CUDA graph replays as one span each, without their nodes (less per replay)</source>
        <translation>每次 CUDA 图重放记录为一个区间，不含其节点（每次重放开销更小）</translation>
    </message>
</context>
<context>
    <name>ws::OpenUrlDialog</name>
    <message>
        <source>Open URL</source>
        <translation>打开 URL</translation>
    </message>
    <message>
        <source>s3://bucket/run1/worker0.pt.trace.json.gz</source>
        <translation>s3://bucket/run1/worker0.pt.trace.json.gz</translation>
    </message>
    <message>
        <source>This URL cannot be opened: %1.</source>
        <translation>无法打开此 URL：%1。</translation>
    </message>
    <message>
        <source>&amp;List</source>
        <translation>列出(&amp;L)</translation>
    </message>
    <message>
        <source>Show the runs and workers under this folder</source>
        <translation>显示此文件夹下的运行与工作进程</translation>
    </message>
    <message>
        <source>Run / worker</source>
        <translation>运行 / 工作进程</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>工作进程</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Listing %1…</source>
        <translation>正在列出 %1…</translation>
    </message>
    <message>
        <source>Cannot list the folder: %1</source>
        <translation>无法列出该文件夹：%1</translation>
    </message>
    <message>
        <source>(top)</source>
        <translation>（顶层）</translation>
    </message>
    <message>
        <source>Opens the run as a job, its workers as ranks</source>
        <translation>将该运行作为作业打开，其工作进程即各 rank</translation>
    </message>
    <message>
        <source>No traces under this folder (objects listed: %1).</source>
        <translation>此文件夹下没有跟踪文件（已列出对象：%1）。</translation>
    </message>
    <message>
        <source>Runs: %1, traces: %2. Pick a run to open it as a job, or one worker.</source>
        <translation>运行：%1，跟踪文件：%2。选择一个运行以作业方式打开，或选择单个工作进程。</translation>
    </message>
    <message>
        <source>&lt;p&gt;A trace in object storage or on a web server:&lt;/p&gt;&lt;table&gt;&lt;tr&gt;&lt;td&gt;&lt;tt&gt;s3://BUCKET/KEY&lt;/tt&gt;&lt;/td&gt;&lt;td&gt;Amazon S3 or an S3-compatible store (AWS_ENDPOINT_URL)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;tt&gt;gs://BUCKET/KEY&lt;/tt&gt;&lt;/td&gt;&lt;td&gt;Google Cloud Storage (GOOGLE_APPLICATION_CREDENTIALS, or public)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;tt&gt;az://ACCOUNT/CONTAINER/BLOB&lt;/tt&gt;&lt;/td&gt;&lt;td&gt;Azure Blob Storage (AZURE_STORAGE_CONNECTION_STRING)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;tt&gt;https://ACCOUNT.blob.core.windows.net/…?SAS&lt;/tt&gt;&lt;/td&gt;&lt;td&gt;Azure with a SAS token&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;tt&gt;https://…&lt;/tt&gt;, &lt;tt&gt;http://…&lt;/tt&gt;&lt;/td&gt;&lt;td&gt;a web server&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;tt&gt;ssh://[USER@]HOST/PATH&lt;/tt&gt;&lt;/td&gt;&lt;td&gt;a machine your ssh reaches (your keys, agent and ~/.ssh/config; &lt;tt&gt;ssh://HOST/~/runs/&lt;/tt&gt; is under your home there)&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;p&gt;A folder (a URL ending in &lt;tt&gt;/&lt;/tt&gt;) opens the run of traces in it as a distributed job; List shows its runs and workers to pick from.&lt;/p&gt;&lt;p&gt;Credentials come from where the clouds&apos; own tools find them (AWS_ACCESS_KEY_ID, ~/.aws, AWS_PROFILE; a service-account key; a SAS token in the URL) and are never stored. The object is downloaded once; opening it again costs one request while it is unchanged, and works offline.&lt;/p&gt;</source>
        <translation>&lt;p&gt;对象存储或 Web 服务器上的跟踪文件：&lt;/p&gt;&lt;table&gt;&lt;tr&gt;&lt;td&gt;&lt;tt&gt;s3://BUCKET/KEY&lt;/tt&gt;&lt;/td&gt;&lt;td&gt;Amazon S3 或兼容 S3 的存储（AWS_ENDPOINT_URL）&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;tt&gt;gs://BUCKET/KEY&lt;/tt&gt;&lt;/td&gt;&lt;td&gt;Google Cloud Storage（GOOGLE_APPLICATION_CREDENTIALS，或公开对象）&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;tt&gt;az://ACCOUNT/CONTAINER/BLOB&lt;/tt&gt;&lt;/td&gt;&lt;td&gt;Azure Blob 存储（AZURE_STORAGE_CONNECTION_STRING）&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;tt&gt;https://ACCOUNT.blob.core.windows.net/…?SAS&lt;/tt&gt;&lt;/td&gt;&lt;td&gt;带 SAS 令牌的 Azure&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;tt&gt;https://…&lt;/tt&gt;, &lt;tt&gt;http://…&lt;/tt&gt;&lt;/td&gt;&lt;td&gt;Web 服务器&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;tt&gt;ssh://[USER@]HOST/PATH&lt;/tt&gt;&lt;/td&gt;&lt;td&gt;您的 ssh 能连接的机器（使用您的密钥、代理和 ~/.ssh/config；&lt;tt&gt;ssh://HOST/~/runs/&lt;/tt&gt; 位于该机器上您的主目录下）&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;p&gt;文件夹（以 &lt;tt&gt;/&lt;/tt&gt; 结尾的 URL）会将其中的一次运行作为分布式作业打开；“列出”会显示其中的运行和工作进程供选择。&lt;/p&gt;&lt;p&gt;凭据取自各云平台自身工具查找的位置（AWS_ACCESS_KEY_ID、~/.aws、AWS_PROFILE；服务账号密钥；URL 中的 SAS 令牌），且从不保存。对象只下载一次；在其未改变时再次打开只需一次请求，离线也可打开。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Not a URL: it must start with s3://, gs://, az://, https://, http:// or ssh://.</source>
        <translation>不是 URL：必须以 s3://、gs://、az://、https://、http:// 或 ssh:// 开头。</translation>
    </message>
</context>
<context>
    <name>ws::OperatorDiffModel</name>
    <message>
        <source>B (new)</source>
        <translation>B（新增）</translation>
    </message>
    <message>
        <source>A (gone)</source>
        <translation>A（消失）</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <source>Call stack</source>
        <translation>调用栈</translation>
    </message>
    <message>
        <source>Only in</source>
        <translation>仅存在于</translation>
    </message>
    <message>
        <source>Calls A</source>
        <translation>A 调用次数</translation>
    </message>
    <message>
        <source>Calls B</source>
        <translation>B 调用次数</translation>
    </message>
    <message>
        <source>Host self A</source>
        <translation>A 主机自身时间</translation>
    </message>
    <message>
        <source>Host self B</source>
        <translation>B 主机自身时间</translation>
    </message>
    <message>
        <source>Device self A</source>
        <translation>A 设备自身时间</translation>
    </message>
    <message>
        <source>Device self B</source>
        <translation>B 设备自身时间</translation>
    </message>
    <message>
        <source>Device total A</source>
        <translation>A 设备总时间</translation>
    </message>
    <message>
        <source>Device total B</source>
        <translation>B 设备总时间</translation>
    </message>
    <message>
        <source>Δ host self</source>
        <translation>Δ 主机自身</translation>
    </message>
    <message>
        <source>Δ device self</source>
        <translation>Δ 设备自身</translation>
    </message>
</context>
<context>
    <name>ws::OperatorTableModel</name>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>No</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Share of the device time spent in kernels that use Tensor Cores</source>
        <translation>设备时间中使用 Tensor Core 的内核所占比例</translation>
    </message>
    <message>
        <source>Host time minus child operators and the operator&apos;s own runtime calls</source>
        <translation>主机时间减去子算子及该算子自身的运行时调用</translation>
    </message>
    <message>
        <source>GPU time of kernels, copies and memsets launched by the operator itself</source>
        <translation>该算子自身启动的内核、拷贝和 memset 的 GPU 时间</translation>
    </message>
    <message>
        <source>Self device time plus that of all child operators</source>
        <translation>自身设备时间加上所有子算子的设备时间</translation>
    </message>
    <message>
        <source>Tensor Core eligible: the operator is one that can run on Tensor Cores (matmul, convolution, attention)</source>
        <translation>可用 Tensor Core：该算子可以在 Tensor Core 上运行（矩阵乘、卷积、注意力）</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <source>Input types</source>
        <translation>输入类型</translation>
    </message>
    <message>
        <source>Call stack</source>
        <translation>调用栈</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Host total</source>
        <translation>主机总计</translation>
    </message>
    <message>
        <source>Host self</source>
        <translation>主机自身</translation>
    </message>
    <message>
        <source>Device total</source>
        <translation>设备总计</translation>
    </message>
    <message>
        <source>Device self</source>
        <translation>设备自身</translation>
    </message>
    <message>
        <source>TC eligible</source>
        <translation>可用 TC</translation>
    </message>
    <message>
        <source>TC self</source>
        <translation>TC 自身</translation>
    </message>
    <message>
        <source>TC total</source>
        <translation>TC 总计</translation>
    </message>
</context>
<context>
    <name>ws::OperatorTableView</name>
    <message>
        <source>Export CSV...</source>
        <translation>导出 CSV...</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Name + input shape</source>
        <translation>名称 + 输入形状</translation>
    </message>
    <message>
        <source>Name + call stack</source>
        <translation>名称 + 调用栈</translation>
    </message>
    <message>
        <source>Filter by operator name</source>
        <translation>按算子名称筛选</translation>
    </message>
    <message>
        <source>Group by:</source>
        <translation>分组方式：</translation>
    </message>
    <message>
        <source>Operators are computed when this tab is first shown.</source>
        <translation>首次显示此标签页时计算算子。</translation>
    </message>
    <message>
        <source>Computing operators...</source>
        <translation>正在计算算子...</translation>
    </message>
    <message>
        <source>Device time is not in this trace (no kernels, memory copies or memsets).</source>
        <translation>此跟踪中没有设备时间（没有内核、内存拷贝或 memset）。</translation>
    </message>
    <message>
        <source>Reading input shapes and call stacks from the trace...</source>
        <translation>正在从跟踪中读取输入形状和调用栈...</translation>
    </message>
    <message>
        <source>Input shapes are not in this trace (it was recorded without record_shapes).</source>
        <translation>此跟踪中没有输入形状（记录时未启用 record_shapes）。</translation>
    </message>
    <message>
        <source>Call stacks are not in this trace (it was recorded without with_stack).</source>
        <translation>此跟踪中没有调用栈（记录时未启用 with_stack）。</translation>
    </message>
    <message>
        <source>%1 operator calls in %2 rows</source>
        <translation>%2 行中共 %1 次算子调用</translation>
    </message>
    <message>
        <source>, %1 shown</source>
        <translation>，显示 %1</translation>
    </message>
    <message>
        <source> — in selected range %1 to %2 (%3)</source>
        <translation> — 所选范围 %1 至 %2（%3）</translation>
    </message>
    <message>
        <source> — %1 of GPU time launched outside any operator</source>
        <translation> — %1 的 GPU 时间由算子之外启动</translation>
    </message>
    <message>
        <source>Export operators as CSV</source>
        <translation>将算子导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV 文件 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
</context>
<context>
    <name>ws::OverviewView</name>
    <message>
        <source>Show whole trace</source>
        <translation>显示整个跟踪</translation>
    </message>
    <message>
        <source>The overview is computed when this tab is first shown.</source>
        <translation>首次显示此标签页时计算概览。</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Step time breakdown</source>
        <translation>步骤时间分解</translation>
    </message>
    <message>
        <source>Recommendations</source>
        <translation>建议</translation>
    </message>
    <message>
        <source>Computing the overview…</source>
        <translation>正在计算概览…</translation>
    </message>
    <message>
        <source>Nothing to analyse: the trace has no events in this range.</source>
        <translation>没有可分析的内容：此范围内没有事件。</translation>
    </message>
    <message numerus="yes">
        <source>Selected range: %n profiler step(s) inside it, clipped to it, %1</source>
        <translation>
            <numerusform>所选范围：其中有 %n 个分析器步骤（已裁剪到该范围），%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Selected range: %1 (no profiler step inside it)</source>
        <translation>所选范围：%1（其中没有分析器步骤）</translation>
    </message>
    <message numerus="yes">
        <source>Whole trace: %n profiler step(s), %1</source>
        <translation>
            <numerusform>整个跟踪：%n 个分析器步骤，%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Whole trace: no profiler steps, the trace&apos;s %1 counts as one step</source>
        <translation>整个跟踪：没有分析器步骤，跟踪的 %1 计为一个步骤</translation>
    </message>
    <message>
        <source>not in this trace</source>
        <translation>此跟踪中没有</translation>
    </message>
    <message>
        <source>No GPU in this trace.</source>
        <translation>此跟踪中没有 GPU。</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>GPU %1: %2</source>
        <translation>GPU %1：%2</translation>
    </message>
    <message>
        <source>no kernels in this range</source>
        <translation>此范围内没有内核</translation>
    </message>
    <message>
        <source>GPU Utilization</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>kernel busy time / steps time</source>
        <translation>内核忙碌时间 / 步骤时间</translation>
    </message>
    <message>
        <source>Est. SM Efficiency</source>
        <translation>估计 SM 效率</translation>
    </message>
    <message>
        <source>estimate from blocks per SM</source>
        <translation>由每 SM 线程块数估算</translation>
    </message>
    <message>
        <source>needs &quot;blocks per SM&quot; kernel args</source>
        <translation>需要内核参数 &quot;blocks per SM&quot;</translation>
    </message>
    <message>
        <source>Est. Achieved Occupancy</source>
        <translation>估计实际占用率</translation>
    </message>
    <message>
        <source>kernel-time weighted</source>
        <translation>按内核时间加权</translation>
    </message>
    <message>
        <source>needs occupancy or launch geometry kernel args</source>
        <translation>需要内核占用率参数或启动配置参数</translation>
    </message>
    <message>
        <source>from launch geometry and device limits, kernel-time weighted</source>
        <translation>由启动配置和设备限制算出，按内核时间加权</translation>
    </message>
    <message>
        <source>measured (PM sampling), % of peak</source>
        <translation>实测（PM 采样），占峰值的百分比</translation>
    </message>
    <message>
        <source>SM Active</source>
        <translation>SM 活跃度</translation>
    </message>
    <message>
        <source>DRAM Bandwidth</source>
        <translation>DRAM 带宽</translation>
    </message>
    <message>
        <source>Tensor Active</source>
        <translation>Tensor Core 活跃度</translation>
    </message>
    <message>
        <source> · the first step (%1, more than twice the others: CUDA loading, library handles, autotuning) is left out as start-up</source>
        <translation> · 第一步（%1，超过其余各步的两倍：CUDA 加载、库句柄创建、自动调优）作为启动阶段未计入</translation>
    </message>
    <message>
        <source>Kernel time using Tensor Cores</source>
        <translation>使用 Tensor Core 的内核时间</translation>
    </message>
    <message>
        <source>by kernel name</source>
        <translation>按内核名称判断</translation>
    </message>
    <message>
        <source>%1 SMs</source>
        <translation>%1 个 SM</translation>
    </message>
    <message>
        <source>SMs: %1</source>
        <translation>SM：%1</translation>
    </message>
    <message>
        <source>%1 memory</source>
        <translation>%1 显存</translation>
    </message>
    <message>
        <source>memory: %1</source>
        <translation>显存：%1</translation>
    </message>
    <message>
        <source>compute capability %1.%2</source>
        <translation>计算能力 %1.%2</translation>
    </message>
    <message>
        <source>compute capability: %1</source>
        <translation>计算能力：%1</translation>
    </message>
    <message>
        <source>%1 kernels, %2</source>
        <translation>%1 个内核，%2</translation>
    </message>
    <message>
        <source>peak allocated %1</source>
        <translation>分配峰值 %1</translation>
    </message>
    <message>
        <source>peak allocated: %1</source>
        <translation>分配峰值：%1</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>%1 (ms)</source>
        <translation>%1 (ms)</translation>
    </message>
    <message>
        <source>Total (ms)</source>
        <translation>总计 (ms)</translation>
    </message>
    <message>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Average</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>the GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Data loading takes a large share of each step</source>
        <translation>数据加载占每个步骤的很大比例</translation>
    </message>
    <message>
        <source>Low GPU utilization on %1</source>
        <translation>%1 的 GPU 利用率低</translation>
    </message>
    <message>
        <source>Tensor Cores are idle on %1: try automatic mixed precision</source>
        <translation>%1 的 Tensor Core 空闲：请尝试自动混合精度</translation>
    </message>
    <message>
        <source>Memory use is near capacity on %1</source>
        <translation>%1 的显存使用接近容量</translation>
    </message>
    <message>
        <source>Communication takes a large share of each step</source>
        <translation>通信占每个步骤的很大比例</translation>
    </message>
    <message>
        <source>Many short kernels are launch-bound on %1</source>
        <translation>%1 上许多短内核受启动开销限制</translation>
    </message>
    <message>
        <source>The CPU waits in synchronous copies and synchronization</source>
        <translation>CPU 在同步拷贝和同步调用中等待</translation>
    </message>
    <message>
        <source>Copies use pageable host memory</source>
        <translation>拷贝使用了可分页主机内存</translation>
    </message>
    <message>
        <source>Long GPU idle gap on %1</source>
        <translation>%1 上有较长的 GPU 空闲间隔</translation>
    </message>
    <message>
        <source>DataLoader takes %1 of the average step (%2, threshold %3). Use DataLoader(num_workers &gt; 0, pin_memory=True) or prefetching so loading overlaps compute.</source>
        <translation>DataLoader 占平均步骤的 %1（%2，阈值 %3）。使用 DataLoader(num_workers &gt; 0, pin_memory=True) 或预取，使加载与计算重叠。</translation>
    </message>
    <message>
        <source>Kernels run during %1 of the steps (threshold %2). Increase the batch size, overlap data loading, or reduce CPU work between kernels.</source>
        <translation>内核仅在步骤的 %1 时间内运行（阈值 %2）。请增大批大小、让数据加载与计算重叠，或减少内核之间的 CPU 工作。</translation>
    </message>
    <message>
        <source>%1 GEMM/convolution kernels take %2 (%3 of kernel time) and no kernel uses Tensor Cores. torch.autocast with float16/bfloat16 runs them on Tensor Cores. Longest: %4</source>
        <translation>%1 个 GEMM/卷积内核耗时 %2（占内核时间的 %3），且没有内核使用 Tensor Core。使用 float16/bfloat16 的 torch.autocast 可让它们在 Tensor Core 上运行。最长的：%4</translation>
    </message>
    <message>
        <source>Peak allocated memory is %1 of %2 (%3, threshold %4). Reduce the batch size, use activation checkpointing, or free unused tensors.</source>
        <translation>分配显存峰值为 %1，容量 %2（%3，阈值 %4）。请减小批大小、使用激活检查点，或释放不用的张量。</translation>
    </message>
    <message>
        <source>Communication takes %1 of the average step (%2, threshold %3). Overlap it with compute (gradient bucketing), compress gradients, or check the interconnect.</source>
        <translation>通信占平均步骤的 %1（%2，阈值 %3）。请让其与计算重叠（梯度分桶）、压缩梯度，或检查互连。</translation>
    </message>
    <message>
        <source>%1 of %2 kernels are shorter than %3 (mean %4) and start after the GPU went idle for at most %5; the GPU waits %6 for them (%7 of the time). Fuse them (torch.compile) or use CUDA Graphs.</source>
        <translation>%2 个内核中有 %1 个短于 %3（平均 %4），并在 GPU 空闲不超过 %5 后开始；GPU 为它们等待了 %6（占时间的 %7）。请融合它们（torch.compile）或使用 CUDA Graphs。</translation>
    </message>
    <message>
        <source>%1 blocking calls take %2 (%3 of the time, threshold %4), most in %5. Use asynchronous copies (non_blocking=True) and avoid .item()/.cpu() inside the step.</source>
        <translation>%1 次阻塞调用耗时 %2（占时间的 %3，阈值 %4），主要在 %5 中。请使用异步拷贝（non_blocking=True），并避免在步骤内调用 .item()/.cpu()。</translation>
    </message>
    <message>
        <source>%1 copies from or to pageable host memory take %2 for %3.</source>
        <translation>%1 次与可分页主机内存之间的拷贝耗时 %2，共 %3。</translation>
    </message>
    <message>
        <source>%1 copies from or to pageable host memory take %2.</source>
        <translation>%1 次与可分页主机内存之间的拷贝耗时 %2。</translation>
    </message>
    <message>
        <source>Pinned memory (pin_memory=True) makes them faster and asynchronous.</source>
        <translation>使用锁页内存（pin_memory=True）可使其更快并且异步。</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Select on timeline</source>
        <translation>在时间线上选中</translation>
    </message>
    <message>
        <source>Show slice</source>
        <translation>显示切片</translation>
    </message>
    <message>
        <source>No recommendation: no rule found a problem here.</source>
        <translation>没有建议：没有规则在此发现问题。</translation>
    </message>
    <message>
        <source> · the steps are ranges named like steps (e.g. NVTX &quot;step 3&quot;)</source>
        <translation> · 步骤取自名称形如步骤的范围（例如 NVTX &quot;step 3&quot;）</translation>
    </message>
    <message>
        <source> · the steps were found from the repeating kernel launch pattern</source>
        <translation> · 步骤由重复的内核启动模式识别得出</translation>
    </message>
    <message>
        <source> · the steps run from one optimizer step to the next (PyTorch&apos;s Optimizer.step ranges)</source>
        <translation> · 每个步骤从一次优化器步骤到下一次（PyTorch 的 Optimizer.step 范围）</translation>
    </message>
    <message>
        <source>DataLoader workers are busy while the GPU waits</source>
        <translation>GPU 等待时 DataLoader 工作进程很忙</translation>
    </message>
    <message>
        <source>The program&apos;s worker processes use %1 % of a core on average (threshold %2 %) while GPU utilization is %3: preparing the input likely limits the step. Add DataLoader workers (num_workers), move augmentation to the GPU, or cache decoded samples.</source>
        <translation>程序的工作进程平均占用一个核心的 %1 %（阈值 %2 %），而 GPU 利用率只有 %3：准备输入很可能限制了步骤。请增加 DataLoader 工作进程（num_workers）、把数据增强移到 GPU 上，或缓存解码后的样本。</translation>
    </message>
    <message>
        <source>Est. CU Efficiency</source>
        <translation>预估 CU 效率</translation>
    </message>
    <message>
        <source>from workgroups per compute unit</source>
        <translation>基于每个计算单元的工作组数</translation>
    </message>
    <message>
        <source>needs grid and block kernel args</source>
        <translation>需要内核的 grid 和 block 参数</translation>
    </message>
    <message>
        <source>cannot be computed</source>
        <translation>无法计算</translation>
    </message>
    <message>
        <source>wavefronts, kernel-time weighted</source>
        <translation>按波前计，以内核时间加权</translation>
    </message>
    <message>
        <source>no register counts for AMD kernels in this trace (rocprofiler-sdk JSON has them)</source>
        <translation>此跟踪中没有 AMD 内核的寄存器数（rocprofiler-sdk JSON 中有）</translation>
    </message>
    <message>
        <source>Kernel time using matrix cores</source>
        <translation>使用矩阵核心的内核时间</translation>
    </message>
    <message>
        <source>MFMA kernels, by kernel name</source>
        <translation>MFMA 内核，按内核名称判断</translation>
    </message>
    <message>
        <source>%1 compute units</source>
        <translation>%1 个计算单元</translation>
    </message>
    <message>
        <source>compute units: %1</source>
        <translation>计算单元：%1</translation>
    </message>
    <message>
        <source>GFX version %1.%2</source>
        <translation>GFX 版本 %1.%2</translation>
    </message>
    <message>
        <source>GFX version: %1</source>
        <translation>GFX 版本：%1</translation>
    </message>
    <message>
        <source>Why the GPU waits</source>
        <translation>GPU 为何等待</translation>
    </message>
    <message>
        <source>Cause</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Per step (ms)</source>
        <translation>每步 (ms)</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Gaps</source>
        <translation>空闲段</translation>
    </message>
    <message>
        <source>Top lines</source>
        <translation>主要代码行</translation>
    </message>
    <message>
        <source>no event on the launching thread</source>
        <translation>发起线程上无事件</translation>
    </message>
    <message>
        <source>no launch recorded for the GPU work after the gap</source>
        <translation>空闲段后的 GPU 工作没有记录到发起调用</translation>
    </message>
    <message>
        <source>DataLoader worker processes busy (their CPU use)</source>
        <translation>DataLoader 工作进程繁忙（其 CPU 占用）</translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation>（未知）</translation>
    </message>
    <message>
        <source>No steps to look for GPU idle gaps in.</source>
        <translation>没有可查找 GPU 空闲段的步骤。</translation>
    </message>
    <message>
        <source>No GPU idle gap of at least %1 inside the steps.</source>
        <translation>步骤内没有至少 %1 的 GPU 空闲段。</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU idle gap(s) of at least %1 inside the steps: %2 per step, %3 of the steps&apos; time, classified by what the thread that launched the next GPU work did meanwhile. Click a row to mark its gaps on the timeline.</source>
        <translation>
            <numerusform>步骤内有 %n 个至少 %1 的 GPU 空闲段：每步 %2，占步骤时间的 %3，按发起下一个 GPU 工作的线程在此期间所做的事分类。点击一行可在时间线上标出其空闲段。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 ms per step · %2 · %3</source>
        <translation>每步 %1 ms · %2 · %3</translation>
    </message>
    <message>
        <source>Looking for GPU idle gaps…</source>
        <translation>正在查找 GPU 空闲间隙…</translation>
    </message>
    <message numerus="yes">
        <source> · recorded only between cudaProfilerStart and cudaProfilerStop: %1 unseen between the recorded spans and %n step(s) that reached into it are left out</source>
        <translation>
            <numerusform> · 仅在 cudaProfilerStart 与 cudaProfilerStop 之间记录：已略去记录区间之间未观测到的 %1，以及延伸到其中的 %n 个步骤</numerusform>
        </translation>
    </message>
    <message>
        <source>kernel busy time / steps time, leaving out %1 of CUDA graph replays recorded as one span each (--graph-trace=graph: what ran inside them is not traced)</source>
        <translation>内核忙碌时间 / 步时间，不含 %1 以单个区间记录的 CUDA 图重放（--graph-trace=graph：其中执行的内容未被跟踪）</translation>
    </message>
    <message>
        <source>Inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>Decode is host-bound on %1</source>
        <translation>%1 上的解码受主机限制</translation>
    </message>
    <message>
        <source>%1 decode forwards keep the GPU busy %2 of their time (threshold %3): a token takes %4 (p50) and its kernels %5. The host sets the pace: %6</source>
        <translation>%1 次解码前向传播只让 GPU 忙碌了其时间的 %2（阈值 %3）：每个 token 耗时 %4（p50），其内核只用 %5。节奏由主机决定：%6</translation>
    </message>
    <message>
        <source>the decode already replays CUDA graphs, so the Python between the replays (sampling, the generate loop) is the cost; decode more sequences per step or move the sampling into the graph.</source>
        <translation>解码已在重放 CUDA 图，开销在于重放之间的 Python（采样、generate 循环）；请每步解码更多序列，或把采样移入图中。</translation>
    </message>
    <message>
        <source>capture the decode step in CUDA graphs (torch.compile(mode=&quot;reduce-overhead&quot;), transformers&apos; cache_implementation=&quot;static&quot;, vLLM or SGLang&apos;s graphs), or decode more sequences per step.</source>
        <translation>请把解码步骤捕获为 CUDA 图（torch.compile(mode=&quot;reduce-overhead&quot;)、transformers 的 cache_implementation=&quot;static&quot;、vLLM 或 SGLang 的图），或每步解码更多序列。</translation>
    </message>
    <message>
        <source>The GPU is idle for %1 at once (%2 of the average step); in all it is idle %3 between its operations.</source>
        <translation>GPU 一次空闲 %1（平均步时间的 %2）；在其操作之间共空闲 %3。</translation>
    </message>
    <message>
        <source>Nothing was recorded on the host then (a capture records what the host runs with Python sampling, warpscope-capture --py-sample); select the gap to see the timeline around it.</source>
        <translation>当时主机上没有记录任何内容（采集可通过 Python 采样记录主机运行的内容：warpscope-capture --py-sample）；选中该间隙以查看其周围的时间线。</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1，位于 %2</translation>
    </message>
    <message>
        <source>%1, after %2 drained the GPU&apos;s queue</source>
        <translation>%1，在 %2 清空 GPU 队列之后</translation>
    </message>
    <message>
        <source>Avoid .item(), .cpu() and synchronize() inside the step, or move them after the next launches.</source>
        <translation>避免在步内调用 .item()、.cpu() 和 synchronize()，或将它们移到下一批启动之后。</translation>
    </message>
    <message>
        <source>Overlap the communication with compute (gradient bucketing, asynchronous collectives).</source>
        <translation>让通信与计算重叠（梯度分桶、异步集合通信）。</translation>
    </message>
    <message>
        <source>Overlap data loading with compute: DataLoader(num_workers &gt; 0, pin_memory=True) or prefetching.</source>
        <translation>让数据加载与计算重叠：DataLoader(num_workers &gt; 0, pin_memory=True) 或预取。</translation>
    </message>
    <message>
        <source>The host&apos;s work there delays the next launch: move it out of the step, or queue more GPU work before it (CUDA graphs, torch.compile).</source>
        <translation>主机在那里的工作推迟了下一次启动：将其移出步，或在它之前排入更多 GPU 工作（CUDA 图、torch.compile）。</translation>
    </message>
    <message>
        <source>Meanwhile the host was in %1. %2</source>
        <translation>此时主机处于 %1。%2</translation>
    </message>
</context>
<context>
    <name>ws::QueryView</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Add as Track</source>
        <translation>添加为轨道</translation>
    </message>
    <message>
        <source>SQL over this session, e.g. SELECT * FROM kernel_summary LIMIT 20  (Ctrl+Return runs)</source>
        <translation>对此会话执行 SQL，例如 SELECT * FROM kernel_summary LIMIT 20（Ctrl+Return 运行）</translation>
    </message>
    <message>
        <source>Run the statement (Ctrl+Return)</source>
        <translation>运行语句（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Stop the running statement</source>
        <translation>停止正在运行的语句</translation>
    </message>
    <message>
        <source>Show the result&apos;s rows on the timeline as a track of their own (needs a time and a duration)</source>
        <translation>将结果的各行作为独立轨道显示在时间线上（需要时间和时长）</translation>
    </message>
    <message>
        <source>Recent statements</source>
        <translation>最近的语句</translation>
    </message>
    <message>
        <source>Table / column</source>
        <translation>表 / 列</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Double-click a name to insert it</source>
        <translation>双击名称即可插入</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>Cancelled after %1.</source>
        <translation>已在 %1 后取消。</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#b00020&apos;&gt;%1&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#b00020&apos;&gt;%1&lt;/span&gt;</translation>
    </message>
    <message>
        <source>the first %1 rows (add LIMIT, or use warpscope-cli query for all)</source>
        <translation>前 %1 行（请添加 LIMIT，或用 warpscope-cli query 获取全部）</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s)</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <translation>%1，用时 %2</translation>
    </message>
    <message>
        <source>A track needs a time column (ts or start_ns) and a duration (dur or duration_ns) or an end (end or end_ns).</source>
        <translation>轨道需要时间列（ts 或 start_ns）以及时长（dur 或 duration_ns）或结束时间（end 或 end_ns）。</translation>
    </message>
    <message>
        <source>No row has both a time and a duration.</source>
        <translation>没有任何行同时具有时间和时长。</translation>
    </message>
    <message>
        <source>Query: %1</source>
        <translation>查询：%1</translation>
    </message>
    <message>
        <source>view</source>
        <translation>视图</translation>
    </message>
</context>
<context>
    <name>ws::RangeSummaryModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Total time</source>
        <translation>总时间</translation>
    </message>
    <message>
        <source>Self time</source>
        <translation>自身时间</translation>
    </message>
    <message>
        <source>Average</source>
        <translation>平均</translation>
    </message>
</context>
<context>
    <name>ws::RangeSummaryView</name>
    <message>
        <source>Drag across the time ruler to summarize a range.</source>
        <translation>在时间标尺上拖动以汇总一个时间范围。</translation>
    </message>
    <message numerus="yes">
        <source>%1 to %2 (%3): %n distinct name(s)</source>
        <translation>
            <numerusform>%1 至 %2（%3）：%n 个不同名称</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::RooflineChart</name>
    <message>
        <source>Arithmetic intensity (FLOP/byte)</source>
        <translation>算术强度（FLOP/字节）</translation>
    </message>
    <message>
        <source>Achieved TFLOP/s</source>
        <translation>实际 TFLOP/s</translation>
    </message>
    <message>
        <source>Tensor Cores %1 TFLOP/s</source>
        <translation>Tensor Core %1 TFLOP/s</translation>
    </message>
    <message>
        <source>FP32 %1 TFLOP/s</source>
        <translation>FP32 %1 TFLOP/s</translation>
    </message>
    <message>
        <source>ridge %1</source>
        <translation>拐点 %1</translation>
    </message>
    <message>
        <source>HBM %1 GB/s</source>
        <translation>HBM %1 GB/s</translation>
    </message>
    <message>
        <source>compute-bound</source>
        <translation>计算受限</translation>
    </message>
    <message>
        <source>memory-bound</source>
        <translation>内存受限</translation>
    </message>
    <message>
        <source>latency-bound</source>
        <translation>延迟受限</translation>
    </message>
    <message>
        <source>circle: estimate from shapes, diamond: Nsight Compute, ring: a phase</source>
        <translation>圆点：按形状估算，菱形：Nsight Compute 实测，圆环：一个阶段</translation>
    </message>
    <message>
        <source>%1
%2 FLOP/byte, %3 TFLOP/s%4</source>
        <translation>%1
%2 FLOP/字节，%3 TFLOP/s%4</translation>
    </message>
    <message>
        <source> (measured by Nsight Compute)</source>
        <translation>（Nsight Compute 实测）</translation>
    </message>
</context>
<context>
    <name>ws::RooflineGroupModel</name>
    <message>
        <source>Bound</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>GPU time</source>
        <translation>GPU 时间</translation>
    </message>
    <message>
        <source>FLOP/byte</source>
        <translation>FLOP/字节</translation>
    </message>
    <message>
        <source>TFLOP/s</source>
        <translation>TFLOP/s</translation>
    </message>
    <message>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <source>Of the roof</source>
        <translation>占屋顶比例</translation>
    </message>
    <message>
        <source>ncu launches</source>
        <translation>ncu 启动数</translation>
    </message>
    <message>
        <source>ncu duration</source>
        <translation>ncu 时长</translation>
    </message>
    <message>
        <source>ncu SM %</source>
        <translation>ncu SM %</translation>
    </message>
    <message>
        <source>ncu memory %</source>
        <translation>ncu 内存 %</translation>
    </message>
    <message>
        <source>ncu bound</source>
        <translation>ncu 瓶颈</translation>
    </message>
</context>
<context>
    <name>ws::RooflineView</name>
    <message>
        <source>Copy ncu command</source>
        <translation>复制 ncu 命令</translation>
    </message>
    <message>
        <source>Computing the roofline…</source>
        <translation>正在计算屋顶线…</translation>
    </message>
    <message>
        <source>GPU as recorded</source>
        <translation>记录中的 GPU</translation>
    </message>
    <message>
        <source>The datasheet peaks the kernels are placed against</source>
        <translation>内核所对照的规格书峰值</translation>
    </message>
    <message>
        <source>The Nsight Compute command that profiles launches of the selected kernel, for the clipboard</source>
        <translation>对所选内核的启动进行分析的 Nsight Compute 命令，复制到剪贴板</translation>
    </message>
    <message>
        <source>Attach Nsight Compute results…</source>
        <translation>附加 Nsight Compute 结果…</translation>
    </message>
    <message>
        <source>Nsight Compute</source>
        <translation>Nsight Compute</translation>
    </message>
    <message>
        <source>Copied to the clipboard. Run it where the program runs, then attach the two CSV exports it writes:</source>
        <translation>已复制到剪贴板。在程序运行的机器上执行它，然后附加它写出的两个 CSV 导出文件：</translation>
    </message>
    <message>
        <source>GPU %1 (%2) is not in Warpscope&apos;s table of GPU peaks: choose the GPU it ran on to place its kernels on a roofline.</source>
        <translation>GPU %1（%2）不在 Warpscope 的 GPU 峰值表中：请选择它实际运行的 GPU，以便将其内核放到屋顶线上。</translation>
    </message>
    <message numerus="yes">
        <source>%1 (Nsight Compute, %n launch(es))</source>
        <translation>
            <numerusform>%1（Nsight Compute，%n 次启动）</numerusform>
        </translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>%1: MFU %2, MBU %3</source>
        <translation>%1：MFU %2，MBU %3</translation>
    </message>
    <message>
        <source> (PM sampling: DRAM %1, tensor pipes %2, SMs %3)</source>
        <translation>（PM 采样：DRAM %1，Tensor 流水线 %2，SM %3）</translation>
    </message>
    <message>
        <source>%1 as %2: %3 TFLOP/s on Tensor Cores, %4 FP32, %5 GB/s; ridge %6 FLOP/byte.</source>
        <translation>%1 按 %2：Tensor Core %3 TFLOP/s，FP32 %4，%5 GB/s；拐点 %6 FLOP/字节。</translation>
    </message>
    <message>
        <source>FLOPs and bytes estimated from operator shapes for %1 of %2 kernels (%3 of kernel time).</source>
        <translation>已根据算子形状为 %2 个内核中的 %1 个估算 FLOPs 与字节数（占内核时间的 %3）。</translation>
    </message>
    <message>
        <source>No operator shapes: record them (torch.profiler record_shapes=True, warpscope-capture --torch-ops=shapes) to place kernels on the roofline; short kernels still read as latency-bound.</source>
        <translation>没有算子形状：请记录形状（torch.profiler record_shapes=True，warpscope-capture --torch-ops=shapes）以将内核放到屋顶线上；较短的内核仍判为延迟受限。</translation>
    </message>
    <message numerus="yes">
        <source>Nsight Compute: %n launch(es) attached.</source>
        <translation>
            <numerusform>Nsight Compute：已附加 %n 次启动。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Attach Nsight Compute results</source>
        <translation>附加 Nsight Compute 结果</translation>
    </message>
    <message>
        <source>Nsight Compute results (*.csv *.csv.gz *.ncu-rep);;All files (*)</source>
        <translation>Nsight Compute 结果 (*.csv *.csv.gz *.ncu-rep);;所有文件 (*)</translation>
    </message>
    <message>
        <source>no</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>ws::SearchBar</name>
    <message>
        <source>Regex</source>
        <translation>正则</translation>
    </message>
    <message>
        <source>Find slices by name…</source>
        <translation>按名称查找片段…</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation>上一个匹配（Shift+Enter）</translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation>下一个匹配（Enter）</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭（Esc）</translation>
    </message>
    <message>
        <source>Find:</source>
        <translation>查找：</translation>
    </message>
    <message>
        <source>invalid pattern</source>
        <translation>无效的模式</translation>
    </message>
    <message>
        <source>no matches</source>
        <translation>无匹配</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 个匹配</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>第 %1 个，共 %2 个</translation>
    </message>
</context>
<context>
    <name>ws::SessionLibraryDialog</name>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>Session Library</source>
        <translation>会话库</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Imported</source>
        <translation>导入时间</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>&amp;Rename…</source>
        <translation>重命名(&amp;R)…</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <source>Change &amp;Folder…</source>
        <translation>更改文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Library folder: %1</source>
        <translation>会话库文件夹：%1</translation>
    </message>
    <message>
        <source>Rename Session</source>
        <translation>重命名会话</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Rename failed</source>
        <translation>重命名失败</translation>
    </message>
    <message>
        <source>Delete Session</source>
        <translation>删除会话</translation>
    </message>
    <message>
        <source>Delete the stored session %1? The original trace file is not touched.</source>
        <translation>删除已存储的会话 %1？原始跟踪文件不会被改动。</translation>
    </message>
    <message>
        <source>Delete failed</source>
        <translation>删除失败</translation>
    </message>
    <message>
        <source>Export Session</source>
        <translation>导出会话</translation>
    </message>
    <message>
        <source>Warpscope sessions (*.warpscope)</source>
        <translation>Warpscope 会话 (*.warpscope)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Could not copy the session to %1.</source>
        <translation>无法将会话复制到 %1。</translation>
    </message>
    <message>
        <source>Import Session</source>
        <translation>导入会话</translation>
    </message>
    <message>
        <source>Warpscope sessions (*.warpscope);;All files (*)</source>
        <translation>Warpscope 会话 (*.warpscope);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Import failed</source>
        <translation>导入失败</translation>
    </message>
    <message>
        <source>%1 is not a Warpscope session: %2</source>
        <translation>%1 不是 Warpscope 会话：%2</translation>
    </message>
    <message>
        <source>Session Library Folder</source>
        <translation>会话库文件夹</translation>
    </message>
</context>
<context>
    <name>ws::SessionPage</name>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
    <message>
        <source>Range</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Bookmarks</source>
        <translation>书签</translation>
    </message>
    <message>
        <source>Add Bookmark</source>
        <translation>添加书签</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>备注：</translation>
    </message>
    <message>
        <source>Remove Bookmark</source>
        <translation>删除书签</translation>
    </message>
    <message>
        <source>Press B on the timeline to bookmark the time under the cursor. Double-click the note to edit it; Enter jumps to the bookmark; Delete removes it.</source>
        <translation>在时间线上按 B 为光标处的时间添加书签。双击备注可编辑；按 Enter 跳转到书签；按 Delete 删除。</translation>
    </message>
    <message>
        <source>Stack</source>
        <translation>调用栈</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Flame Graph</source>
        <translation>火焰图</translation>
    </message>
    <message>
        <source>Graphs</source>
        <translation>图</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>屋顶线</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Maximize</source>
        <translation>最大化</translation>
    </message>
    <message>
        <source>Give the tabs the whole page, hiding the timeline (Ctrl+Shift+M, or double-click a tab)</source>
        <translation>让标签页占满整页并隐藏时间线（Ctrl+Shift+M，或双击标签页）</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>还原</translation>
    </message>
</context>
<context>
    <name>ws::SessionSummaryView</name>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>GPU kernels</source>
        <translation>GPU 内核</translation>
    </message>
    <message>
        <source>Memory copies</source>
        <translation>内存拷贝</translation>
    </message>
    <message>
        <source>Memory sets</source>
        <translation>内存置值</translation>
    </message>
    <message>
        <source>Runtime API calls</source>
        <translation>运行时 API 调用</translation>
    </message>
    <message>
        <source>CPU → GPU flows</source>
        <translation>CPU → GPU 关联</translation>
    </message>
    <message>
        <source>Profiler steps</source>
        <translation>分析步</translation>
    </message>
    <message>
        <source>Trace duration</source>
        <translation>跟踪时长</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>GPU Utilization</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>Est. SM Efficiency</source>
        <translation>估计 SM 效率</translation>
    </message>
    <message>
        <source>Est. Achieved Occupancy</source>
        <translation>估计实际占用率</translation>
    </message>
    <message>
        <source>Peak Allocated</source>
        <translation>已分配峰值</translation>
    </message>
    <message>
        <source>Peak Reserved</source>
        <translation>已保留峰值</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Track</source>
        <translation>轨道</translation>
    </message>
    <message>
        <source>First event</source>
        <translation>首个事件</translation>
    </message>
    <message>
        <source>Active span</source>
        <translation>活动区间</translation>
    </message>
    <message>
        <source>&lt;b&gt;GPU devices&lt;/b&gt;</source>
        <translation>&lt;b&gt;GPU 设备&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Tracks&lt;/b&gt;</source>
        <translation>&lt;b&gt;轨道&lt;/b&gt;</translation>
    </message>
    <message>
        <source>%1 · %2 · imported in %3 ms</source>
        <translation>%1 · %2 · 导入用时 %3 毫秒</translation>
    </message>
    <message>
        <source>%1 on the GPU</source>
        <translation>GPU 上共 %1</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>Computing the summary…</source>
        <translation>正在计算摘要…</translation>
    </message>
    <message>
        <source>Est. CU Efficiency</source>
        <translation>估计 CU 效率</translation>
    </message>
    <message>
        <source>Est. SM / CU Efficiency</source>
        <translation>估计 SM / CU 效率</translation>
    </message>
</context>
<context>
    <name>ws::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>系统默认</translation>
    </message>
    <message>
        <source>Custom command</source>
        <translation>自定义命令</translation>
    </message>
    <message>
        <source>e.g. code -g %f:%l:%c</source>
        <translation>例如 code -g %f:%l:%c</translation>
    </message>
    <message>
        <source>Open in editor</source>
        <translation>在编辑器中打开</translation>
    </message>
    <message>
        <source>Editor:</source>
        <translation>编辑器：</translation>
    </message>
    <message>
        <source>Command:</source>
        <translation>命令：</translation>
    </message>
    <message>
        <source>Runs:</source>
        <translation>实际运行：</translation>
    </message>
    <message>
        <source>%f file, %l line, %c column, %% a percent sign. Arguments are split at spaces; use &apos;…&apos; or &quot;…&quot; to keep spaces. The command runs directly, never through a shell.</source>
        <translation>%f 文件，%l 行号，%c 列号，%% 百分号。参数按空格拆分；用 &apos;…&apos; 或 &quot;…&quot; 保留空格。命令直接运行，绝不经过 shell。</translation>
    </message>
    <message>
        <source>Path substitution (tried in order)</source>
        <translation>路径替换（按顺序尝试）</translation>
    </message>
    <message>
        <source>Recorded prefix</source>
        <translation>记录时的前缀</translation>
    </message>
    <message>
        <source>Local prefix</source>
        <translation>本机前缀</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Move Up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move Down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Invalid command: %1</source>
        <translation>无效命令：%1</translation>
    </message>
    <message>
        <source>Nsight Systems</source>
        <translation>Nsight Systems</translation>
    </message>
    <message>
        <source>Found automatically (PATH, /opt/nvidia/nsight-systems*)</source>
        <translation>自动查找（PATH、/opt/nvidia/nsight-systems*）</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>nsys:</source>
        <translation>nsys：</translation>
    </message>
    <message>
        <source>Choose nsys</source>
        <translation>选择 nsys</translation>
    </message>
    <message>
        <source>Reports (.nsys-rep) cannot be opened: %1. Install Nsight Systems or choose its nsys.</source>
        <translation>无法打开报告（.nsys-rep）：%1。请安装 Nsight Systems 或选择其 nsys。</translation>
    </message>
    <message>
        <source>Reports (.nsys-rep) are converted with %1.</source>
        <translation>报告（.nsys-rep）将由 %1 转换。</translation>
    </message>
    <message>
        <source>Fold dispatch and decorator frames</source>
        <translation>折叠分派帧和装饰器帧</translation>
    </message>
    <message>
        <source>Flame Graph and Stack tab</source>
        <translation>火焰图和调用栈标签页</translation>
    </message>
    <message>
        <source>Comma-separated. A plain name matches a function&apos;s last dotted part (wrapper matches can_return_tuple.&lt;locals&gt;.wrapper); a pattern with * or . matches the whole name. Empty: the defaults shown.</source>
        <translation>以逗号分隔。普通名称匹配函数名最后一个点号后的部分（wrapper 匹配 can_return_tuple.&lt;locals&gt;.wrapper）；含 * 或 . 的模式匹配整个名称。留空：使用所示的默认值。</translation>
    </message>
    <message>
        <source>Patterns:</source>
        <translation>模式：</translation>
    </message>
</context>
<context>
    <name>ws::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
</context>
<context>
    <name>ws::SliceDetailsView</name>
    <message>
        <source>Click a slice on the timeline to see its details here.</source>
        <translation>单击时间线上的片段，在此查看其详细信息。</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Track</source>
        <translation>轨道</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>→ to</source>
        <translation>→ 到</translation>
    </message>
    <message>
        <source>← from</source>
        <translation>← 来自</translation>
    </message>
    <message>
        <source>Linked events</source>
        <translation>关联事件</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Call stack</source>
        <translation>调用栈</translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s), innermost first; click a function to see its source</source>
        <translation>
            <numerusform>%n 帧，最内层在前；单击函数查看其源码</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::SnapshotDiffView</name>
    <message>
        <source>Allocating line</source>
        <translation>分配代码行</translation>
    </message>
    <message>
        <source>A: live at its peak</source>
        <translation>A：其峰值时的存活内存</translation>
    </message>
    <message>
        <source>B: live at its peak</source>
        <translation>B：其峰值时的存活内存</translation>
    </message>
    <message>
        <source>Growth</source>
        <translation>增长</translation>
    </message>
    <message>
        <source>A: allocated in trace</source>
        <translation>A：跟踪内分配量</translation>
    </message>
    <message>
        <source>B: allocated in trace</source>
        <translation>B：跟踪内分配量</translation>
    </message>
    <message>
        <source>GPU %1: peak of live memory A %2, B %3 (%4). Rows: each allocating stack&apos;s bytes live at each run&apos;s peak, largest growth first.</source>
        <translation>GPU %1：存活内存峰值 A %2，B %3（%4）。每行：各分配调用栈在各自峰值时的存活字节，按增长从大到小排列。</translation>
    </message>
    <message>
        <source>(no stack recorded)</source>
        <translation>（未记录调用栈）</translation>
    </message>
</context>
<context>
    <name>ws::SnapshotOomView</name>
    <message>
        <source>Out of memory / live by allocating line</source>
        <translation>内存不足 / 按分配代码行统计的存活内存</translation>
    </message>
    <message>
        <source>Live bytes</source>
        <translation>存活字节</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>分配</translation>
    </message>
    <message>
        <source>Select an OOM for the allocator state at that moment; double-click a line for its stack</source>
        <translation>选择一次 OOM 以查看当时的分配器状态；双击一行查看其调用栈</translation>
    </message>
    <message>
        <source>the allocations of %1</source>
        <translation>%1 的分配</translation>
    </message>
    <message>
        <source>OOM at %1: %2 requested, %3 reserved</source>
        <translation>%1 时 OOM：请求 %2，已保留 %3</translation>
    </message>
    <message>
        <source>, the driver had %1 free</source>
        <translation>，驱动报告空闲 %1</translation>
    </message>
    <message>
        <source> · requested by %1</source>
        <translation> · 请求来自 %1</translation>
    </message>
    <message>
        <source>(no stack recorded)</source>
        <translation>（未记录调用栈）</translation>
    </message>
    <message>
        <source>No out-of-memory event in this snapshot&apos;s trace on this device. A snapshot dumped in the `except torch.cuda.OutOfMemoryError` handler ends with one.</source>
        <translation>此快照在该设备上的跟踪中没有内存不足事件。在 `except torch.cuda.OutOfMemoryError` 处理中转储的快照会以一次 OOM 结尾。</translation>
    </message>
</context>
<context>
    <name>ws::SnapshotStateView</name>
    <message>
        <source>Segment / block</source>
        <translation>段 / 块</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>Inactive</source>
        <translation>非活动</translation>
    </message>
    <message>
        <source>Largest free</source>
        <translation>最大空闲块</translation>
    </message>
    <message>
        <source>Type / state and allocating line</source>
        <translation>类型 / 状态与分配代码行</translation>
    </message>
    <message>
        <source>Double-click a block to see its stack</source>
        <translation>双击一个块查看其调用栈</translation>
    </message>
    <message>
        <source>the block at %1</source>
        <translation>位于 %1 的块</translation>
    </message>
    <message>
        <source>When the snapshot was taken</source>
        <translation>快照时刻</translation>
    </message>
    <message>
        <source>At %1</source>
        <translation>在 %1</translation>
    </message>
    <message>
        <source>reserved %1 in %2 segments</source>
        <translation>已保留 %1，共 %2 个段</translation>
    </message>
    <message>
        <source>allocated %1</source>
        <translation>已分配 %1</translation>
    </message>
    <message>
        <source>pending free %1</source>
        <translation>待释放 %1</translation>
    </message>
    <message>
        <source>inactive %1</source>
        <translation>非活动 %1</translation>
    </message>
    <message>
        <source>fragmented %1 (inactive in segments with live blocks)</source>
        <translation>碎片 %1（含存活块的段中的非活动内存）</translation>
    </message>
    <message>
        <source>largest free block %1</source>
        <translation>最大空闲块 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n allocation(s) outside every segment</source>
        <translation>
            <numerusform>%n 个分配不在任何段内</numerusform>
        </translation>
    </message>
    <message>
        <source>segment, stream %1</source>
        <translation>段，流 %1</translation>
    </message>
    <message>
        <source>%1 segment, stream %2</source>
        <translation>%1 段，流 %2</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>free requested, pending (stream use)</source>
        <translation>已请求释放，等待中（流仍在使用）</translation>
    </message>
    <message>
        <source>free (cached)</source>
        <translation>空闲（已缓存）</translation>
    </message>
    <message>
        <source>unknown state</source>
        <translation>未知状态</translation>
    </message>
    <message>
        <source>requested %1</source>
        <translation>请求 %1</translation>
    </message>
</context>
<context>
    <name>ws::SnapshotTimelineView</name>
    <message>
        <source>Active memory: each live allocation is a band, stacked in allocation order. Click a band for its stack and the allocator state at that time.</source>
        <translation>活动内存：每个存活的分配是一条色带，按分配顺序堆叠。单击色带查看其调用栈及当时的分配器状态。</translation>
    </message>
    <message>
        <source>No allocations in this snapshot&apos;s trace.</source>
        <translation>此快照的跟踪中没有分配。</translation>
    </message>
    <message>
        <source>trace order, to %1</source>
        <translation>按跟踪顺序，至 %1</translation>
    </message>
    <message>
        <source>Active memory, peak %1 in view</source>
        <translation>活动内存，视图内峰值 %1</translation>
    </message>
    <message>
        <source>OOM: %1 requested</source>
        <translation>OOM：请求 %1</translation>
    </message>
    <message>
        <source>before the trace</source>
        <translation>跟踪开始之前</translation>
    </message>
    <message>
        <source>still live at the end</source>
        <translation>结束时仍存活</translation>
    </message>
    <message>
        <source>%1 at 0x%2
allocated %3, freed %4
%5</source>
        <translation>%1，地址 0x%2
分配于 %3，释放于 %4
%5</translation>
    </message>
    <message>
        <source>(no stack recorded)</source>
        <translation>（未记录调用栈）</translation>
    </message>
</context>
<context>
    <name>ws::SourcePane</name>
    <message>
        <source>Locate…</source>
        <translation>定位…</translation>
    </message>
    <message>
        <source>No source shown. Select a frame and press Enter.</source>
        <translation>未显示源码。选择一个栈帧并按 Enter。</translation>
    </message>
    <message>
        <source>%1, line %2</source>
        <translation>%1，第 %2 行</translation>
    </message>
    <message>
        <source>The file is not on this machine (no path substitution rule finds it). Locate it to add a rule for its folder.</source>
        <translation>本机上没有此文件（没有路径替换规则能找到它）。定位该文件以为其所在文件夹添加规则。</translation>
    </message>
    <message>
        <source>%1, line %2 (recorded as %3)</source>
        <translation>%1，第 %2 行（记录为 %3）</translation>
    </message>
    <message>
        <source>This file was modified after the trace was recorded (%1 &gt; %2): lines may not match.</source>
        <translation>此文件在跟踪记录之后被修改过（%1 &gt; %2）：行号可能不对应。</translation>
    </message>
    <message>
        <source>Open in Editor</source>
        <translation>在编辑器中打开</translation>
    </message>
    <message>
        <source>Locate %1</source>
        <translation>定位 %1</translation>
    </message>
    <message>
        <source>The file is not on this machine: showing the copy stored in the session when it was imported (%1).</source>
        <translation>此文件不在本机上：显示导入会话时保存的副本（%1）。</translation>
    </message>
    <message>
        <source>%1 GPU</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>%1 alloc</source>
        <translation>分配 %1</translation>
    </message>
</context>
<context>
    <name>ws::SourceSettings</name>
    <message>
        <source>Bad editor command: %1</source>
        <translation>编辑器命令有误：%1</translation>
    </message>
    <message>
        <source>Could not start %1.</source>
        <translation>无法启动 %1。</translation>
    </message>
</context>
<context>
    <name>ws::StackView</name>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>启动</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>Native</source>
        <translation>原生</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Select a slice to see its stack.</source>
        <translation>选择一个切片以查看其调用栈。</translation>
    </message>
    <message>
        <source>No stack for this slice.</source>
        <translation>此切片没有调用栈。</translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s); none has a source location (record with with_stack=True).</source>
        <translation>
            <numerusform>%n 个栈帧；都没有源码位置（请用 with_stack=True 记录）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s); none has a source location (record the capture with warpscope-capture --py-stacks, or New Capture&apos;s &quot;Python call stacks&quot;).</source>
        <translation>
            <numerusform>%n 个栈帧；都没有源码位置（请用 warpscope-capture --py-stacks 采集，或在“新建采集”中勾选“Python 调用栈”）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s), innermost first. Enter shows the source, Ctrl+Enter opens the editor.</source>
        <translation>
            <numerusform>%n 个栈帧，最内层在前。Enter 显示源码，Ctrl+Enter 打开编辑器。</numerusform>
        </translation>
    </message>
    <message>
        <source>No stack recorded for %1.</source>
        <translation>%1 没有记录调用栈。</translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s); none has a source location (record the snapshot with _record_memory_history(stacks=&quot;python&quot;) or &quot;all&quot;).</source>
        <translation>
            <numerusform>%n 个栈帧；都没有源码位置（请用 _record_memory_history(stacks=&quot;python&quot;) 或 &quot;all&quot; 记录快照）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Hide dispatch frames</source>
        <translation>隐藏分派帧</translation>
    </message>
    <message>
        <source>Hide nn.Module&apos;s _call_impl and _wrapped_call_impl, decorators&apos; wrappers and __call__ frames (Settings lists the patterns)</source>
        <translation>隐藏 nn.Module 的 _call_impl 和 _wrapped_call_impl、装饰器的 wrapper 以及 __call__ 帧（模式见“设置”）</translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s), innermost first, %1 dispatch frame(s) hidden. Enter shows the source, Ctrl+Enter opens the editor.</source>
        <translation>
            <numerusform>%n 帧，最内层在前，已隐藏 %1 个分派帧。Enter 显示源码，Ctrl+Enter 在编辑器中打开。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ws::StepBreakdownChart</name>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Memcpy</source>
        <translation>内存拷贝</translation>
    </message>
    <message>
        <source>Memset</source>
        <translation>内存设置</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>运行时</translation>
    </message>
    <message>
        <source>DataLoader</source>
        <translation>数据加载</translation>
    </message>
    <message>
        <source>CPU Exec</source>
        <translation>CPU 执行</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Step (first %1 of %2)</source>
        <translation>步骤（%2 个中的前 %1 个）</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
</context>
<context>
    <name>ws::TimeBarAxes</name>
    <message>
        <source>Time (ms)</source>
        <translation>时间 (ms)</translation>
    </message>
</context>
<context>
    <name>ws::TimelineView</name>
    <message>
        <source>GPU activity</source>
        <translation>GPU 活动</translation>
    </message>
    <message>
        <source>%1 visible</source>
        <translation>可见 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n events</source>
        <translation>
            <numerusform>%n 个事件</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 · starts at %3&lt;br&gt;duration %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 · 开始于 %3&lt;br&gt;时长 %4</translation>
    </message>
    <message>
        <source>max %1</source>
        <translation>最大 %1</translation>
    </message>
    <message>
        <source>Expand</source>
        <translation>展开</translation>
    </message>
    <message>
        <source>Collapse</source>
        <translation>折叠</translation>
    </message>
    <message>
        <source>Unpin</source>
        <translation>取消固定</translation>
    </message>
    <message>
        <source>Pin to Top</source>
        <translation>固定到顶部</translation>
    </message>
    <message>
        <source>Move Up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move Down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Collapse All Others</source>
        <translation>折叠其他所有分组</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;starts at %2&lt;br&gt;duration %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;开始于 %2&lt;br&gt;时长 %3</translation>
    </message>
    <message>
        <source>Remove Track</source>
        <translation>移除轨道</translation>
    </message>
    <message>
        <source>Remove All Query Tracks</source>
        <translation>移除所有查询轨道</translation>
    </message>
</context>
<context>
    <name>ws::TokenLatencyChart</name>
    <message>
        <source>Time per output token, decode by decode</source>
        <translation>每个输出 token 的时间，逐次解码</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>分布</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>Prefill (forward %1): a request starts</source>
        <translation>预填充（前向传播 %1）：一个请求开始</translation>
    </message>
    <message>
        <source>Decode (forward %1): %2 for its token</source>
        <translation>解码（前向传播 %1）：其 token 用时 %2</translation>
    </message>
</context>
<context>
    <name>ws::WelcomePage</name>
    <message>
        <source>Warpscope</source>
        <translation>Warpscope</translation>
    </message>
    <message>
        <source>See where GPU time goes, why the GPU idles, where memory peaks, and which line of code is responsible.</source>
        <translation>查看 GPU 时间花在哪里、GPU 为何空闲、内存峰值出现在何处，以及是哪一行代码造成的。</translation>
    </message>
    <message>
        <source>Open Trace…</source>
        <translation>打开跟踪…</translation>
    </message>
    <message>
        <source>Open Sample Session</source>
        <translation>打开示例会话</translation>
    </message>
    <message>
        <source>Or drop trace files onto this window.</source>
        <translation>也可以将跟踪文件拖放到此窗口。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Recent files&lt;/b&gt;</source>
        <translation>&lt;b&gt;最近打开的文件&lt;/b&gt;</translation>
    </message>
    <message>
        <source>No recent files yet.</source>
        <translation>暂无最近打开的文件。</translation>
    </message>
    <message>
        <source>Reads</source>
        <translation>可读取</translation>
    </message>
    <message>
        <source>Files are recognized by their content; local files, URLs (S3, Google Cloud Storage, Azure, HTTP) and folders over SSH.</source>
        <translation>文件按内容识别；支持本地文件、URL（S3、Google Cloud Storage、Azure、HTTP）以及通过 SSH 访问的文件夹。</translation>
    </message>
    <message>
        <source>PyTorch profiler / Kineto traces and Chrome trace JSON</source>
        <translation>PyTorch profiler / Kineto 跟踪和 Chrome 跟踪 JSON</translation>
    </message>
    <message>
        <source>Nsight Systems SQLite exports</source>
        <translation>Nsight Systems SQLite 导出</translation>
    </message>
    <message>
        <source>Nsight Systems reports, where Nsight Systems is installed</source>
        <translation>Nsight Systems 报告（需安装 Nsight Systems）</translation>
    </message>
    <message>
        <source>nvprof databases</source>
        <translation>nvprof 数据库</translation>
    </message>
    <message>
        <source>rocprofiler-sdk (rocprofv3) JSON</source>
        <translation>rocprofiler-sdk (rocprofv3) JSON</translation>
    </message>
    <message>
        <source>XLA XSpace profiles (JAX, TensorFlow, PyTorch/XLA)</source>
        <translation>XLA XSpace 性能数据（JAX、TensorFlow、PyTorch/XLA）</translation>
    </message>
    <message>
        <source>PyTorch memory snapshots</source>
        <translation>PyTorch 内存快照</translation>
    </message>
    <message>
        <source>PyTorch memory timelines</source>
        <translation>PyTorch 内存时间线</translation>
    </message>
    <message>
        <source>Warpscope captures</source>
        <translation>Warpscope 采集</translation>
    </message>
    <message>
        <source>Warpscope sessions</source>
        <translation>Warpscope 会话</translation>
    </message>
</context>
<context>
    <name>ws::WorkerStackChart</name>
    <message>
        <source>Worker (first %1 of %2)</source>
        <translation>Worker（%2 个中的前 %1 个）</translation>
    </message>
    <message>
        <source>Worker</source>
        <translation>Worker</translation>
    </message>
</context>
</TS>
