import { parse } from './src/sysml';
const r = parse(`package P { part sys { attribute r3 = 1; part eng { attribute rpm : Real; } bind eng.rpm = r3; } }`);
const sys = (r.document.members[0] as any).members[0];
const b = sys.body[2];
console.log(b.kind, b.keyword, b.name, JSON.stringify(b.ends?.map((e: any) => e.target)), b.value, b.relations);
