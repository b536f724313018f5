/**
 * The VBScript that lists Windows' processes for WindowsProcessSource, run by `cscript.exe` (part
 * of every Windows since 98) through WMI's `Win32_Process`: one script start a scan, no build.
 *
 * Its argument, when there is one, is a file of the processes already known, one `PID<TAB>STAMP`
 * a line (the stamp: creation date and name, which tell a reused PID from the process before). It
 * lists every process by `ProcessId`, `Name` and `CreationDate` only, prints `= PID` for a known
 * one unchanged, and reads `ExecutablePath` and `CommandLine` (the costly part: WMI opens the
 * process and reads its memory) only for the others, in one `WHERE ProcessId = … OR …` query
 * (past 64 of them, one query of every process, of which only theirs are printed).
 * Without the argument every process is read in full.
 *
 * Output, one line each: `= PID`; `+ PID<TAB>STAMP<TAB>NAME<TAB>PATH<TAB>COMMANDLINE`; last `.`
 * (the list is whole); or `! CODE MESSAGE` (WMI failed). A `%`, a tab, CR, LF and every character
 * outside printable ASCII are written `%XXXX` (a UTF-16 code unit, hex): the output is ASCII
 * whatever the console's code page. A property the WMI at hand lacks (Wine 8 has no
 * `ExecutablePath`, `CreationDate`, nor other processes' `CommandLine`) is empty.
 */
export const PROCESS_LIST_SCRIPT = `' Companion: the running processes for game detection (main/src/host/detection/windows-process-list-script.ts).
Option Explicit
On Error Resume Next
Dim known, re, svc, p, fresh, where, pid, same, fso, file, line, tab
' Past this many new processes, one query of them all rather than a WHERE clause as long.
Const MAX_WHERE = 64
Set known = CreateObject("Scripting.Dictionary")
If WScript.Arguments.Count > 0 Then
  Set fso = CreateObject("Scripting.FileSystemObject")
  Set file = fso.OpenTextFile(WScript.Arguments(0), 1)
  Do Until file.AtEndOfStream
    line = file.ReadLine()
    tab = InStr(line, vbTab)
    If tab > 1 Then known(Left(line, tab - 1)) = Mid(line, tab + 1)
  Loop
  file.Close
End If
Set re = New RegExp
re.Pattern = "[^ -~]"
Set svc = GetObject("winmgmts:\\\\.\\root\\cimv2")
If Not IsObject(svc) Then WScript.Echo "! " & Err.Number & " " & Esc(Err.Description) : WScript.Quit 2
Err.Clear
If known.Count = 0 Then
  For Each p In svc.ExecQuery("SELECT ProcessId, Name, CreationDate, ExecutablePath, CommandLine FROM Win32_Process")
    Detail p
  Next
Else
  Set fresh = CreateObject("Scripting.Dictionary")
  where = ""
  For Each p In svc.ExecQuery("SELECT ProcessId, Name, CreationDate FROM Win32_Process")
    pid = CStr(p.ProcessId)
    same = False
    If known.Exists(pid) Then same = (known(pid) = StampOf(p))
    If same Then
      WScript.Echo "= " & pid
    Else
      fresh(pid) = True
      where = where & " OR ProcessId = " & pid
    End If
  Next
  If fresh.Count > 0 And fresh.Count <= MAX_WHERE Then
    For Each p In svc.ExecQuery("SELECT ProcessId, Name, CreationDate, ExecutablePath, CommandLine FROM Win32_Process WHERE " & Mid(where, 5))
      Detail p
    Next
  ElseIf fresh.Count > MAX_WHERE Then
    For Each p In svc.ExecQuery("SELECT ProcessId, Name, CreationDate, ExecutablePath, CommandLine FROM Win32_Process")
      If fresh.Exists(CStr(p.ProcessId)) Then Detail p
    Next
  End If
End If
If Err.Number <> 0 Then WScript.Echo "! " & Err.Number & " " & Esc(Err.Description) : WScript.Quit 2
WScript.Echo "."

Function Prop(p, name)
  On Error Resume Next
  Prop = ""
  Prop = p.Properties_.Item(name).Value
  If IsNull(Prop) Then Prop = ""
  Err.Clear
End Function

Function StampOf(p)
  StampOf = Esc(Prop(p, "CreationDate") & "/" & Prop(p, "Name"))
End Function

Sub Detail(p)
  WScript.Echo "+ " & p.ProcessId & vbTab & StampOf(p) & vbTab & Esc(Prop(p, "Name")) & vbTab & Esc(Prop(p, "ExecutablePath")) & vbTab & Esc(Prop(p, "CommandLine"))
End Sub

Function Esc(s)
  On Error Resume Next
  Dim i, c, r
  r = Replace(Replace(Replace(Replace(s, "%", "%0025"), vbTab, "%0009"), vbCr, "%000D"), vbLf, "%000A")
  Esc = r
  If Not re.Test(r) Then Exit Function
  Esc = ""
  For i = 1 To Len(r)
    c = 63
    c = AscW(Mid(r, i, 1))
    If c < 0 Then c = c + 65536
    If c < 32 Or c > 126 Then Esc = Esc & "%" & Right("000" & Hex(c), 4) Else Esc = Esc & Mid(r, i, 1)
  Next
End Function
`;
