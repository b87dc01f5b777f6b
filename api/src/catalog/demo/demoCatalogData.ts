/**
 * The tables the grown demo catalog (issue 33 point 7, demoCatalog.ts) is generated from: the brands, the category
 * tree, and the motorcycles with what their parts depend on (chain, fork, filter, plug, battery). The demo's first
 * rows (catalogSeed.ts: EBC, DID, NGK, Brakes > Brake pads, Honda CRF450R, Yamaha YZ450F...) are named here again
 * by their slugs, so the generator links to them and never makes them twice.
 */

/** A brand; `ean` is the GS1 company prefix its EANs start with (null: it prints none). */
export interface DemoBrand {
  name: string;
  ean: string | null;
}

export const demoBrands: DemoBrand[] = [
  { name: 'EBC', ean: '5027891' },
  { name: 'DID', ean: '4525516' },
  { name: 'NGK', ean: '4054032' },
  { name: 'Brembo', ean: '8020584' },
  { name: 'SBS', ean: '5708143' },
  { name: 'Galfer', ean: '8435215' },
  { name: 'EK', ean: '8808734' },
  { name: 'RK', ean: '4562128' },
  { name: 'JT Sprockets', ean: '5055212' },
  { name: 'HifloFiltro', ean: '5060296' },
  { name: 'K&N', ean: '0024844' },
  { name: 'Twin Air', ean: '8717277' },
  { name: 'Denso', ean: null },
  { name: 'Yuasa', ean: '5050123' },
  { name: 'Shorai', ean: '0859183' },
  { name: 'All Balls', ean: '0662233' },
  { name: 'Vesrah', ean: '4560190' },
  { name: 'Athena', ean: '8019806' },
  { name: 'Electrosport', ean: '0827126' },
];

/** The category tree, two levels: each top category with its children (the first four children are the demo's). */
export const demoCategories: { name: string; children: string[] }[] = [
  { name: 'Brakes', children: ['Brake pads', 'Brake discs'] },
  { name: 'Drive', children: ['Chains', 'Sprockets', 'Clutch kits'] },
  { name: 'Ignition', children: ['Spark plugs'] },
  { name: 'Engine', children: ['Oil filters', 'Air filters', 'Gaskets'] },
  { name: 'Electrical', children: ['Batteries', 'Regulator rectifiers'] },
  { name: 'Suspension', children: ['Fork seals'] },
];

export type MakeName = 'Honda' | 'Yamaha' | 'Kawasaki' | 'Suzuki' | 'KTM' | 'BMW';
export const demoMakes: MakeName[] = ['Honda', 'Yamaha', 'Kawasaki', 'Suzuki', 'KTM', 'BMW'];

/** A variant (submodel, engine or market) sold in some of the model's years only (all of them when unbounded). */
export interface DemoVariant {
  name: string;
  from?: number;
  to?: number;
}

/**
 * A model as the generator needs it. `chain` is pitch and links (null: shaft drive), `teeth` front and rear,
 * `fork` the fork tube's diameter in mm (null: no fork seals sold for it), `forkByVariant` a variant's own fork
 * (null: none for it), `oilFilter` a HifloFiltro number (null: a two-stroke), `plug` an NGK number, `battery` a
 * Yuasa number (null: none fitted), `discs` the front discs, `code` the model's code in its maker's OEM numbers,
 * `brakesAs` another model whose brake parts it shares.
 */
export interface DemoModel {
  make: MakeName;
  name: string;
  kind: 'dirt' | 'road' | 'adventure';
  years: [number, number];
  variants?: DemoVariant[];
  cylinders: number;
  chain: { pitch: 520 | 525; links: number } | null;
  teeth: [number, number] | null;
  fork: number | null;
  forkByVariant?: Record<string, number | null>;
  oilFilter: string | null;
  plug: string;
  battery: string | null;
  discs: 1 | 2;
  code: string;
  brakesAs?: string;
}

const base = (name: string): DemoVariant => ({ name });
const abs = [base(''), base('ABS')];
const markets = [base('US'), base('EU')];

// One model a line, read as a table.
// prettier-ignore
export const demoModels: DemoModel[] = [
  // Honda (the CRF450R is the demo's own, catalogSeed.ts)
  { make: 'Honda', name: 'CR250R', kind: 'dirt', years: [2004, 2007], cylinders: 1, chain: { pitch: 520, links: 114 }, teeth: [13, 48], fork: 48, oilFilter: null, plug: 'BR8EG', battery: null, discs: 1, code: 'KZ3' },
  { make: 'Honda', name: 'XR650L', kind: 'adventure', years: [2019, 2024], cylinders: 1, chain: { pitch: 520, links: 108 }, teeth: [15, 45], fork: 43, oilFilter: 'HF113', plug: 'DPR8EA-9', battery: 'YTX7L-BS', discs: 1, code: 'MY6' },
  { make: 'Honda', name: 'CBR600RR', kind: 'road', years: [2013, 2020], variants: abs, cylinders: 4, chain: { pitch: 525, links: 114 }, teeth: [16, 42], fork: 41, oilFilter: 'HF204', plug: 'IMR9C-9HES', battery: 'YTZ10S', discs: 2, code: 'MJC' },
  { make: 'Honda', name: 'CB500F', kind: 'road', years: [2019, 2023], variants: abs, cylinders: 2, chain: { pitch: 520, links: 112 }, teeth: [15, 41], fork: 41, oilFilter: 'HF204', plug: 'CPR8EA-9', battery: 'YTZ7S', discs: 1, code: 'K33' },
  { make: 'Honda', name: 'CB650R', kind: 'road', years: [2019, 2024], cylinders: 4, chain: { pitch: 525, links: 112 }, teeth: [15, 45], fork: 41, oilFilter: 'HF204', plug: 'IMR9E-9HES', battery: 'YTZ10S', discs: 2, code: 'MKN' },
  { make: 'Honda', name: 'NC750X', kind: 'adventure', years: [2016, 2023], variants: [base('Manual'), base('DCT')], cylinders: 2, chain: { pitch: 520, links: 118 }, teeth: [17, 39], fork: 41, oilFilter: 'HF204', plug: 'IFR6G-11K', battery: 'YTZ14S', discs: 1, code: 'MKA' },
  { make: 'Honda', name: 'XL750 Transalp', kind: 'adventure', years: [2023, 2025], cylinders: 2, chain: { pitch: 520, links: 118 }, teeth: [16, 47], fork: 43, oilFilter: 'HF204', plug: 'LMAR9E-J', battery: 'YTZ8V', discs: 2, code: 'MLC' },
  { make: 'Honda', name: 'CBR1000RR-R Fireblade', kind: 'road', years: [2020, 2024], variants: [base(''), base('SP')], cylinders: 4, chain: { pitch: 525, links: 116 }, teeth: [16, 40], fork: 43, forkByVariant: { SP: null }, oilFilter: 'HF204', plug: 'IMR9E-9HES', battery: 'YTZ8V', discs: 2, code: 'MKR' },
  // Yamaha (the YZ450F is the demo's own)
  { make: 'Yamaha', name: 'WR450F', kind: 'dirt', years: [2019, 2024], cylinders: 1, chain: { pitch: 520, links: 114 }, teeth: [13, 49], fork: 48, oilFilter: 'HF140', plug: 'CR8EIA-9', battery: 'YTZ7V', discs: 1, code: 'BF7' },
  { make: 'Yamaha', name: 'WR250F', kind: 'dirt', years: [2020, 2024], cylinders: 1, chain: { pitch: 520, links: 112 }, teeth: [13, 50], fork: 48, oilFilter: 'HF140', plug: 'LMAR8D-J', battery: 'YTZ7V', discs: 1, code: 'B7C' },
  { make: 'Yamaha', name: 'WR250R', kind: 'dirt', years: [2015, 2020], cylinders: 1, chain: { pitch: 520, links: 110 }, teeth: [13, 43], fork: 46, oilFilter: 'HF140', plug: 'CR8E', battery: 'YTZ7S', discs: 1, code: '3D7' },
  { make: 'Yamaha', name: 'MT-07', kind: 'road', years: [2018, 2024], variants: markets, cylinders: 2, chain: { pitch: 520, links: 108 }, teeth: [16, 43], fork: 41, oilFilter: 'HF204', plug: 'LMAR8A-9', battery: 'YTZ10S', discs: 2, code: 'B4C' },
  { make: 'Yamaha', name: 'XSR700', kind: 'road', years: [2018, 2024], cylinders: 2, chain: { pitch: 520, links: 108 }, teeth: [16, 43], fork: 41, oilFilter: 'HF204', plug: 'LMAR8A-9', battery: 'YTZ10S', discs: 2, code: 'B34', brakesAs: 'MT-07' },
  { make: 'Yamaha', name: 'MT-09', kind: 'road', years: [2021, 2024], variants: [base(''), base('SP')], cylinders: 3, chain: { pitch: 525, links: 116 }, teeth: [16, 45], fork: 41, oilFilter: 'HF204', plug: 'LMAR9E-J', battery: 'YTZ8V', discs: 2, code: 'B7N' },
  { make: 'Yamaha', name: 'Tracer 9 GT', kind: 'adventure', years: [2021, 2024], cylinders: 3, chain: { pitch: 525, links: 116 }, teeth: [16, 45], fork: 41, oilFilter: 'HF204', plug: 'LMAR9E-J', battery: 'YTZ14S', discs: 2, code: 'B5U', brakesAs: 'MT-09' },
  { make: 'Yamaha', name: 'Ténéré 700', kind: 'adventure', years: [2020, 2024], variants: [base(''), { name: 'Rally Edition', from: 2021, to: 2023 }], cylinders: 2, chain: { pitch: 520, links: 118 }, teeth: [15, 46], fork: 43, oilFilter: 'HF204', plug: 'CPR8EA-9', battery: 'YTZ7S', discs: 2, code: 'BW3' },
  // Kawasaki
  { make: 'Kawasaki', name: 'KX450', kind: 'dirt', years: [2019, 2024], cylinders: 1, chain: { pitch: 520, links: 114 }, teeth: [13, 50], fork: 49, oilFilter: 'HF207', plug: 'CPR8EB-9', battery: 'YTZ5S', discs: 1, code: '0619' },
  { make: 'Kawasaki', name: 'KX250', kind: 'dirt', years: [2020, 2024], cylinders: 1, chain: { pitch: 520, links: 114 }, teeth: [13, 50], fork: 48, oilFilter: 'HF207', plug: 'CR8EB', battery: null, discs: 1, code: '0620', brakesAs: 'KX450' },
  { make: 'Kawasaki', name: 'KLX300', kind: 'dirt', years: [2021, 2024], cylinders: 1, chain: { pitch: 520, links: 108 }, teeth: [14, 42], fork: 43, oilFilter: 'HF112', plug: 'CR8E', battery: 'YTZ7V', discs: 1, code: '0571' },
  { make: 'Kawasaki', name: 'Ninja 400', kind: 'road', years: [2018, 2024], variants: abs, cylinders: 2, chain: { pitch: 520, links: 106 }, teeth: [14, 41], fork: 41, oilFilter: 'HF303', plug: 'CR8E', battery: 'YTX7L-BS', discs: 1, code: '0632' },
  { make: 'Kawasaki', name: 'Z900', kind: 'road', years: [2017, 2024], variants: [base(''), { name: 'SE', from: 2022 }], cylinders: 4, chain: { pitch: 525, links: 114 }, teeth: [15, 44], fork: 41, oilFilter: 'HF303', plug: 'SILMAR8A9S', battery: 'YTZ10S', discs: 2, code: '0597' },
  { make: 'Kawasaki', name: 'Versys 650', kind: 'adventure', years: [2018, 2024], variants: [base(''), base('LT')], cylinders: 2, chain: { pitch: 525, links: 110 }, teeth: [15, 46], fork: 41, oilFilter: 'HF303', plug: 'SILMAR8A9S', battery: 'YTZ10S', discs: 2, code: '0588' },
  { make: 'Kawasaki', name: 'KLR650', kind: 'adventure', years: [2022, 2024], variants: [base(''), base('ABS'), base('Adventure')], cylinders: 1, chain: { pitch: 520, links: 108 }, teeth: [15, 41], fork: 41, oilFilter: 'HF651', plug: 'DPR8EA-9', battery: 'YTX14-BS', discs: 1, code: '0655' },
  // Suzuki
  { make: 'Suzuki', name: 'RM-Z450', kind: 'dirt', years: [2018, 2024], cylinders: 1, chain: { pitch: 520, links: 114 }, teeth: [13, 49], fork: 49, oilFilter: 'HF141', plug: 'LMAR8BI-9', battery: null, discs: 1, code: '28K' },
  { make: 'Suzuki', name: 'RM-Z250', kind: 'dirt', years: [2019, 2024], cylinders: 1, chain: { pitch: 520, links: 114 }, teeth: [13, 48], fork: 48, oilFilter: 'HF141', plug: 'LMAR8AI-10', battery: null, discs: 1, code: '29F', brakesAs: 'RM-Z450' },
  { make: 'Suzuki', name: 'DR-Z400S', kind: 'adventure', years: [2018, 2024], cylinders: 1, chain: { pitch: 520, links: 110 }, teeth: [15, 44], fork: 49, oilFilter: 'HF139', plug: 'CR8E', battery: 'YTX7L-BS', discs: 1, code: '29F2' },
  { make: 'Suzuki', name: 'GSX-R750', kind: 'road', years: [2018, 2023], cylinders: 4, chain: { pitch: 525, links: 114 }, teeth: [17, 43], fork: 41, oilFilter: 'HF138', plug: 'CR8EIA-9', battery: 'YTX12-BS', discs: 2, code: '14J' },
  { make: 'Suzuki', name: 'SV650', kind: 'road', years: [2017, 2024], variants: [base(''), { name: 'X', from: 2018 }], cylinders: 2, chain: { pitch: 520, links: 108 }, teeth: [15, 46], fork: 41, oilFilter: 'HF138', plug: 'MR8E-9', battery: 'YTX9-BS', discs: 2, code: '48H' },
  { make: 'Suzuki', name: 'V-Strom 650', kind: 'adventure', years: [2017, 2024], variants: [base(''), base('XT')], cylinders: 2, chain: { pitch: 525, links: 118 }, teeth: [15, 47], fork: 43, oilFilter: 'HF138', plug: 'MR8E-9', battery: 'YTX12-BS', discs: 2, code: '27K' },
  { make: 'Suzuki', name: 'GSX-S1000', kind: 'road', years: [2018, 2024], cylinders: 4, chain: { pitch: 525, links: 116 }, teeth: [17, 44], fork: 43, oilFilter: 'HF138', plug: 'LMAR9AI-8', battery: 'YTX12-BS', discs: 2, code: '17K', brakesAs: 'GSX-R750' },
  // KTM
  { make: 'KTM', name: '450 SX-F', kind: 'dirt', years: [2019, 2024], variants: [base(''), base('Factory Edition')], cylinders: 1, chain: { pitch: 520, links: 118 }, teeth: [13, 48], fork: 48, oilFilter: 'HF655', plug: 'LKAR8AI-9', battery: null, discs: 1, code: '79' },
  { make: 'KTM', name: '300 EXC', kind: 'dirt', years: [2019, 2024], variants: [{ name: 'TPI', to: 2023 }, { name: 'TBI', from: 2024 }], cylinders: 1, chain: { pitch: 520, links: 118 }, teeth: [14, 50], fork: 48, oilFilter: null, plug: 'BR8ECMVX', battery: 'YTZ5S', discs: 1, code: '55', brakesAs: '450 SX-F' },
  { make: 'KTM', name: '390 Duke', kind: 'road', years: [2017, 2023], cylinders: 1, chain: { pitch: 520, links: 114 }, teeth: [15, 45], fork: 43, oilFilter: 'HF155', plug: 'LKAR8AI-9', battery: 'YTZ10S', discs: 1, code: '90' },
  { make: 'KTM', name: '790 Adventure', kind: 'adventure', years: [2019, 2023], variants: [base(''), base('R')], cylinders: 2, chain: { pitch: 525, links: 118 }, teeth: [16, 45], fork: 43, forkByVariant: { R: 48 }, oilFilter: 'HF651', plug: 'LMAR8DI-10', battery: 'YTZ10S', discs: 2, code: '63' },
  { make: 'KTM', name: '890 Duke R', kind: 'road', years: [2020, 2023], cylinders: 2, chain: { pitch: 520, links: 118 }, teeth: [16, 45], fork: 48, oilFilter: 'HF651', plug: 'LMAR8DI-10', battery: 'YTZ10S', discs: 2, code: '64' },
  { make: 'KTM', name: '1290 Super Adventure S', kind: 'adventure', years: [2021, 2024], cylinders: 2, chain: { pitch: 525, links: 118 }, teeth: [17, 42], fork: 48, oilFilter: 'HF650', plug: 'LMAR9AI-8', battery: 'YTZ14S', discs: 2, code: '61' },
  // BMW
  { make: 'BMW', name: 'R 1250 GS', kind: 'adventure', years: [2019, 2023], variants: [base(''), base('Adventure')], cylinders: 2, chain: null, teeth: null, fork: null, oilFilter: 'HF164', plug: 'LMAR8D-J', battery: 'YTX14-BS', discs: 2, code: '8' },
  { make: 'BMW', name: 'F 850 GS', kind: 'adventure', years: [2018, 2024], variants: [base(''), base('Adventure')], cylinders: 2, chain: { pitch: 525, links: 118 }, teeth: [17, 46], fork: 43, oilFilter: 'HF160', plug: 'LMAR8D-J', battery: 'YTZ14S', discs: 2, code: '7' },
  { make: 'BMW', name: 'S 1000 RR', kind: 'road', years: [2019, 2024], variants: [base(''), base('M Package')], cylinders: 4, chain: { pitch: 525, links: 118 }, teeth: [17, 45], fork: 45, oilFilter: 'HF160', plug: 'LMAR9AI-8', battery: 'YTZ10S', discs: 2, code: '5' },
  { make: 'BMW', name: 'G 310 GS', kind: 'adventure', years: [2017, 2024], cylinders: 1, chain: { pitch: 520, links: 118 }, teeth: [16, 42], fork: 41, oilFilter: 'HF611', plug: 'LMAR8A-9', battery: 'YTZ7S', discs: 1, code: '2' },
];
