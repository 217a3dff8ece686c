<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>tally::ui</name>
    <message numerus="yes">
        <source>%n result(s)</source>
        <translation>
            <numerusform>%n result</numerusform>
            <numerusform>%n results</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tally::ui::MeasuredProfileDialog</name>
    <message numerus="yes">
        <source>the times of %n GEMM shape(s)</source>
        <translation>
            <numerusform>the times of %n GEMM shape</numerusform>
            <numerusform>the times of %n GEMM shapes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tally::ui::ProbePanel</name>
    <message numerus="yes">
        <source>%n result(s)</source>
        <translation>
            <numerusform>%n result</numerusform>
            <numerusform>%n results</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Finished: %n result(s), every one passed or waived.</source>
        <translation>
            <numerusform>Finished: %n result, and it passed or was waived.</numerusform>
            <numerusform>Finished: %n results, every one passed or waived.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Probe run #%1 failed: it stopped before its end, or a test failed. A profile made from it takes only the passed, validated results among its %n result(s), and keeps the base profile&apos;s figures for everything it did not measure. Make the profile anyway?</source>
        <translation>
            <numerusform>Probe run #%1 failed: it stopped before its end, or a test failed. A profile made from it takes its %n result only if it passed and was validated, and keeps the base profile&apos;s figures for everything it did not measure. Make the profile anyway?</numerusform>
            <numerusform>Probe run #%1 failed: it stopped before its end, or a test failed. A profile made from it takes only the passed, validated results among its %n results, and keeps the base profile&apos;s figures for everything it did not measure. Make the profile anyway?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete probe run %1 and its %n result(s) from the workspace? This cannot be undone.</source>
        <translation>
            <numerusform>Delete probe run %1 and its %n result from the workspace? This cannot be undone.</numerusform>
            <numerusform>Delete probe run %1 and its %n results from the workspace? This cannot be undone.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tally::ui::ProfileManagerPanel</name>
    <message numerus="yes">
        <source>%n saved plan(s) run on it and will not be drawn until you pick another GPU for them: %1.</source>
        <translation>
            <numerusform>%n saved plan runs on it and will not be drawn until you pick another GPU for them: %1.</numerusform>
            <numerusform>%n saved plans run on it and will not be drawn until you pick another GPU for them: %1.</numerusform>
        </translation>
    </message>
</context>
</TS>
