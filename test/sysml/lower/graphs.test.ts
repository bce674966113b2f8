import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from '../../../src/sysml';
import { type GraphNode, type Graphs, lowerToGraphs } from '../../../src/sysml/lower';
import { Workspace } from '../../../src/sysml/names';
import { CORPUS, sysmlFiles } from '../names/corpus-files';

function lower(text: string, subject: string): Graphs {
  const ws = new Workspace();
  ws.update('m.sysml', parse(text).document);
  const r = lowerToGraphs(ws, subject, { textOf: (uri) => (uri === 'm.sysml' ? text : undefined) });
  if (!r.ok) throw new Error(r.message);
  return r.graphs;
}

/** `name kind -> successor[guard], …` per node, ranges left out. */
function summary(nodes: readonly GraphNode[]): string[] {
  return nodes.map((n) => `${n.name} ${n.kind}` + (n.successors ? ' -> ' + n.successors.map((s) => s.to + (s.guard ? `[${s.guard}]` : '')).join(', ') : ''));
}

describe('sysml lower: graphs:1', () => {
  it('lowers a sequence with start and done, naming nodes relative to the subject', () => {
    const text = 'package P { action def Run { first start; then action a; then action b; then done; } }';
    const g = lower(text, 'P::Run');
    assert.equal(g.version, 1);
    assert.equal(g.subject, 'P::Run');
    assert.deepEqual(summary(g.actions), ['start start -> a', 'a action -> b', 'b action -> done', 'done done']);
    assert.deepEqual(g.states, []);
    const column = text.indexOf('action a;') + 1;
    assert.deepEqual(g.actions[1]!.range, { uri: 'm.sysml', line: 1, column, endLine: 1, endColumn: column + 'action a;'.length });
  });

  it('lowers decide with guards and else, merge, fork and join', () => {
    const text = `package P { action def Loop {
      attribute x = 1;
      first start;
      then merge m;
      then action work;
      then decide d;
        if x > 3 then finish;
        else m;
      action finish;
      then fork f;
        then left;
        then right;
      action left; action right;
      first left then j; first right then j;
      join j;
      then done;
    } }`;
    assert.deepEqual(summary(lower(text, 'P::Loop').actions), [
      'start start -> m', 'm merge -> work', 'work action -> d', 'd decide -> finish[x > 3], m[else]',
      'finish action -> f', 'f fork -> left, right', 'left action -> j', 'right action -> j', 'j join -> done', 'done done',
    ]);
  });

  it('lowers accept, send, assign, if, while and for with their expressions', () => {
    const text = `package P { attribute def Go; action def A {
      attribute n = 0;
      first start;
      then accept g : Go via port1;
      then send Go() to other;
      then assign n := n + 1;
      then if n > 2 { action big; } else { action small; }
      then while n < 10 { assign n := n + 1; } until n == 5;
      then for i in (1, 2) { action each; }
      then accept after 5 [s];
      then terminate;
    } }`;
    const nodes = lower(text, 'P::A').actions;
    const byKind = (k: string): GraphNode => nodes.find((n) => n.kind === k)!;
    assert.deepEqual(byKind('accept').trigger, { kind: 'signal', payload: 'g', type: 'Go', via: 'port1' });
    assert.deepEqual([byKind('send').payload, byKind('send').to], ['Go()', 'other']);
    assert.deepEqual([byKind('assign').target, byKind('assign').value], ['n', 'n + 1']);
    assert.deepEqual([byKind('if').condition, byKind('if').then, byKind('if').else], ['n > 2', 'if#1.then', 'if#1.else']);
    assert.ok(nodes.some((n) => n.name === 'if#1.then.big'));
    assert.deepEqual([byKind('while').condition, byKind('while').until], ['n < 10', 'n == 5']);
    assert.deepEqual([byKind('for').variable, byKind('for').collection], ['i', '(1, 2)']);
    assert.deepEqual(nodes.filter((n) => n.kind === 'accept')[1]!.trigger, { kind: 'after', expression: '5 [s]' });
    assert.deepEqual(summary(nodes.filter((n) => !n.name.includes('.'))).slice(0, 3), ['start start -> accept#1', 'accept#1 accept -> send#1', 'send#1 send -> assign#1']);
  });

  it('lowers states with transitions, triggers, guards, effects and entry/do/exit', () => {
    const text = `package P { attribute def On; attribute def Off; action def Beep;
      state def Lamp {
        entry; then off;
        state off;
        accept On if enabled do action beep : Beep then on;
        state on { entry action warm; do action glow; exit action cool; }
        transition toOff first on accept Off then off;
        attribute enabled = true;
      } }`;
    const g = lower(text, 'P::Lamp');
    assert.deepEqual(summary(g.states), [
      'entry entry -> off', 'off state -> on[enabled]', 'on state -> off',
      'transition#1 transition', 'transition#2 transition', 'toOff transition',
    ]);
    const t = g.states.find((s) => s.name === 'transition#2')!;
    assert.deepEqual([t.source, t.target, t.guard, t.effect, t.trigger], ['off', 'on', 'enabled', 'beep', { kind: 'signal', type: 'On' }]);
    const on = g.states.find((s) => s.name === 'on')!;
    assert.deepEqual([on.entry, on.do, on.exit], ['on.warm', 'on.glow', 'on.cool']);
    assert.ok(g.actions.some((a) => a.name === 'beep' && a.type === 'P::Beep'));
  });

  it('expands the definition a usage performs, below the usage name', () => {
    const text = 'package P { action def Inner { first start then step1; action step1; } action def Outer { first start then inner; action inner : Inner; } }';
    assert.deepEqual(summary(lower(text, 'P::Outer').actions), [
      'start start -> inner', 'inner action', 'inner.start start -> inner.step1', 'inner.step1 action', 'done done',
    ]);
  });

  it('lowers the behaviours a part performs and exhibits', () => {
    const text = `package P {
      action def Drive { first start then go; action go; }
      state def Modes { entry; then idle; state idle; }
      part car { attribute speed; perform action drive : Drive; exhibit state modes : Modes; }
    }`;
    const g = lower(text, 'P::car');
    assert.deepEqual(summary(g.actions), ['drive action', 'drive.start start -> drive.go', 'drive.go action']);
    assert.deepEqual(summary(g.states), ['modes state', 'modes.entry entry -> modes.idle', 'modes.idle state', 'modes.transition#1 transition']);
  });

  it('answers an error value for a subject that is not declared once', () => {
    const ws = new Workspace();
    ws.update('m.sysml', parse('package P { action a; action a; }').document);
    assert.deepEqual(lowerToGraphs(ws, 'P::nope'), { ok: false, message: "subject 'P::nope' is not declared" });
    assert.deepEqual(lowerToGraphs(ws, 'P::a'), { ok: false, message: "subject 'P::a' is declared 2 times" });
  });

  it('lowers every action and state of the corpus Actions, Control, States and Transitions lessons deterministically', () => {
    const dirs = ['15. Actions', '17. Control', '24. States', '25. Transitions'].map((d) => path.join(CORPUS, 'training', d));
    let subjects = 0;
    for (const file of dirs.flatMap((d) => sysmlFiles(d))) {
      const text = fs.readFileSync(file, 'utf8');
      const ws = new Workspace();
      ws.update(file, parse(text).document);
      for (const d of ws.declarationsIn(file)) {
        if ((d.kind !== 'action' && d.kind !== 'state') || d.parent?.kind !== 'package') continue;
        const once = lowerToGraphs(ws, d.qualifiedName, { textOf: () => text });
        const again = lowerToGraphs(ws, d.qualifiedName, { textOf: () => text });
        assert.ok(once.ok, `${file}: ${d.qualifiedName}`);
        assert.deepEqual(again, once);
        const g = once.graphs;
        const names = [...g.actions, ...g.states].map((n) => n.name);
        assert.equal(new Set(names).size, names.length, `duplicate node names in ${d.qualifiedName}: ${names.join(' ')}`);
        for (const n of [...g.actions, ...g.states]) for (const s of n.successors ?? []) assert.ok(names.includes(s.to), `${d.qualifiedName}: ${n.name} -> ${s.to}`);
        subjects++;
      }
    }
    assert.ok(subjects >= 10, `only ${subjects} subjects`);
  });

  it('lowers the corpus action decomposition example', () => {
    const file = path.join(CORPUS, 'training/15. Actions/Action Decomposition.sysml');
    const text = fs.readFileSync(file, 'utf8');
    const ws = new Workspace();
    ws.update(file, parse(text).document);
    const r = lowerToGraphs(ws, "'Action Decomposition'::takePicture", { textOf: () => text });
    assert.ok(r.ok);
    assert.deepEqual(r.graphs.actions.map((n) => [n.name, n.kind, n.type ?? '']), [
      ['start', 'start', ''],
      ['focus', 'action', "'Action Decomposition'::Focus"],
      ['shoot', 'action', "'Action Decomposition'::Shoot"],
      ['done', 'done', ''],
    ]);
    assert.equal(r.graphs.actions[1]!.range!.line, text.split('\n').findIndex((l) => l.includes('action focus')) + 1);
  });
});
