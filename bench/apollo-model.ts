// An Apollo-sized synthetic SysML v2 model for the name-resolution figures: 28 files, about 7,000
// lines, each file a package that imports earlier ones, with specialization chains across files,
// ISQ/SI quantities and units, ports, connections, actions, states and requirements. Generated
// deterministically (no randomness) so figures compare across runs and machines.
// The public Apollo 11 model is not in the corpus; this stands in for its shape and size.

export interface GeneratedFile {
  readonly path: string;
  readonly text: string;
}

const SUBSYSTEMS = [
  'Saturn', 'StageOne', 'StageTwo', 'StageThree', 'Instrument', 'Command', 'Service', 'Lunar', 'Ascent',
  'Descent', 'Guidance', 'Navigation', 'Telemetry', 'Power', 'Thermal', 'LifeSupport', 'Propulsion',
  'Structure', 'Docking', 'Abort', 'Recovery', 'GroundSupport', 'Tracking', 'Crew', 'Mission',
  'Experiments', 'Comms', 'Timeline',
];

const QUANTITIES: [string, string, string][] = [
  ['mass', 'ISQ::MassValue', 'SI::kg'],
  ['length', 'ISQ::LengthValue', 'SI::m'],
  ['thrust', 'ISQ::ForceValue', 'SI::N'],
  ['power', 'ISQ::PowerValue', 'SI::W'],
  ['duration', 'ISQ::DurationValue', 'SI::s'],
  ['temperature', 'ISQ::ThermodynamicTemperatureValue', 'SI::K'],
  ['speed', 'ISQ::SpeedValue', "SI::'m/s'"],
  ['energy', 'ISQ::EnergyValue', 'SI::J'],
];

/** The model's files; `files` (28) and `partsPerFile` scale it (the default is about 7k lines). */
export function apolloModel(files = 28, partsPerFile = 5): GeneratedFile[] {
  const out: GeneratedFile[] = [];
  for (let f = 0; f < files; f++) {
    const name = SUBSYSTEMS[f % SUBSYSTEMS.length]! + (f >= SUBSYSTEMS.length ? String(f) : '');
    const prev = f > 0 ? SUBSYSTEMS[(f - 1) % SUBSYSTEMS.length]! + (f - 1 >= SUBSYSTEMS.length ? String(f - 1) : '') : null;
    const nameOf = (i: number): string => SUBSYSTEMS[i % SUBSYSTEMS.length]! + (i >= SUBSYSTEMS.length ? String(i) : '');
    // A file's element specializes that of file (f - 1) / 2: chains about five files deep, as a
    // model's elements specialize a few common bases (not every earlier file in a row).
    const parent = f > 0 ? nameOf((f - 1) >> 1) : null;
    const base = f > 1 ? nameOf(f >> 1) : null;
    const L: string[] = [];
    L.push(`package ${name} {`);
    L.push('  private import ScalarValues::*;');
    L.push('  private import ISQ::*;');
    L.push('  private import SI::*;');
    if (prev) L.push(`  public import ${prev}::*;`);
    if (base && base !== prev) L.push(`  private import ${base}::${base}Element;`);
    if (parent && parent !== prev && parent !== base) L.push(`  private import ${parent}::${parent}Element;`);
    L.push('');
    L.push(`  attribute def ${name}Id :> String;`);
    L.push(`  enum def ${name}Mode { enum off; enum standby; enum active; enum fault; }`);
    L.push(`  port def ${name}Port {`);
    L.push(`    in attribute command : ${name}Mode;`);
    L.push(`    out attribute reading : Real;`);
    L.push(`    out attribute power : ISQ::PowerValue;`);
    L.push('  }');
    L.push(`  interface def ${name}Link {`);
    L.push(`    end source : ${name}Port;`);
    L.push(`    end target : ~${name}Port;`);
    L.push('  }');
    L.push(`  part def ${name}Element${parent ? ` :> ${parent}Element` : ''} {`);
    for (const [q, type, unit] of QUANTITIES) L.push(`    attribute ${q}${name} : ${type} = ${f + 1} [${unit}];`);
    L.push(`    port io : ${name}Port;`);
    L.push(`    attribute id : ${name}Id;`);
    L.push('  }');
    L.push('');
    for (let p = 0; p < partsPerFile; p++) {
      const pn = `${name}Unit${p}`;
      const sup = p === 0 ? `${name}Element` : `${name}Unit${p - 1}`;
      const [q, type, unit] = QUANTITIES[(f + p) % QUANTITIES.length]!;
      const [q2, type2, unit2] = QUANTITIES[(f + p + 3) % QUANTITIES.length]!;
      L.push(`  part def ${pn} :> ${sup} {`);
      L.push(`    doc /* Unit ${p} of the ${name} subsystem. */`);
      L.push(`    attribute ${q}Limit : ${type} = ${10 * (p + 1)} [${unit}];`);
      L.push(`    attribute ${q2}Budget : ${type2} = ${p + 2} [${unit2}];`);
      L.push(`    attribute :>> mass${name} = ${p + 3} [kg];`);
      L.push(`    attribute margin : Real = ${q}Limit / ${q}Limit;`);
      L.push(`    attribute mode : ${name}Mode = ${name}Mode::standby;`);
      L.push(`    port control : ${name}Port;`);
      L.push(`    port feedback : ~${name}Port;`);
      if (base && base !== prev) L.push(`    part heritage : ${base}Element;`);
      L.push(`    part sensor${p} {`);
      L.push(`      attribute reading : Real = ${p}.5;`);
      L.push(`      attribute rate : ISQ::FrequencyValue = ${p + 1} [SI::Hz];`);
      L.push(`      attribute settle : ISQ::DurationValue = ${p + 1} [s];`);
      L.push('    }');
      L.push(`    constraint ${q}Within { ${q}Limit >= ${q}Limit }`);
      L.push(`    action check${p} {`);
      L.push(`      in attribute level : Real;`);
      L.push(`      out attribute ok : Boolean;`);
      L.push('    }');
      L.push(`    state ${pn}States {`);
      L.push('      entry; then idle;');
      L.push('      state idle;');
      L.push('      state running;');
      L.push('      state stopped;');
      L.push('      transition idle_running first idle then running;');
      L.push('      transition running_stopped first running then stopped;');
      L.push('    }');
      L.push('  }');
      L.push('');
    }
    L.push(`  part ${name.charAt(0).toLowerCase() + name.slice(1)}System : ${name}Element {`);
    for (let p = 0; p < partsPerFile; p++) L.push(`    part unit${p} : ${name}Unit${p};`);
    for (let p = 0; p + 1 < partsPerFile; p++) L.push(`    interface : ${name}Link connect source ::> unit${p}.control to target ::> unit${p + 1}.feedback;`);
    for (let p = 0; p + 1 < partsPerFile; p++) L.push(`    connection c${p} connect unit${p}.sensor${p} to unit${p + 1}.sensor${p + 1};`);
    L.push(`    attribute totalMass : MassValue = unit0.mass${name} + unit1.mass${name};`);
    L.push('  }');
    L.push('');
    L.push(`  action def ${name}Sequence {`);
    L.push(`    in attribute start : ${name}Mode;`);
    for (let p = 0; p < partsPerFile; p++) L.push(`    action step${p} { in attribute level : Real; }`);
    L.push('    first start;');
    for (let p = 0; p < partsPerFile; p++) L.push(`    then step${p};`);
    L.push('  }');
    L.push('');
    for (let r = 0; r < 6; r++) {
      const [q, type, unit] = QUANTITIES[(f + r) % QUANTITIES.length]!;
      L.push(`  requirement def ${name}Req${r} {`);
      L.push(`    doc /* The ${name} ${q} shall stay within its limit ${r}. */`);
      L.push(`    subject unit : ${name}Unit${r % partsPerFile};`);
      L.push(`    attribute required : ${type} = ${r + 1} [${unit}];`);
      L.push(`    require constraint { unit.${QUANTITIES[(f + (r % partsPerFile)) % QUANTITIES.length]![0]}Limit >= unit.${QUANTITIES[(f + (r % partsPerFile)) % QUANTITIES.length]![0]}Limit }`);
      L.push('  }');
      L.push(`  satisfy ${name}Req${r} by ${name.charAt(0).toLowerCase() + name.slice(1)}System.unit${r % partsPerFile};`);
    }
    L.push('}');
    out.push({ path: `${String(f + 1).padStart(2, '0')}-${name}.sysml`, text: L.join('\n') + '\n' });
  }
  return out;
}
