import type { DemoContext, DemoNumber } from './demoCatalog';
import { demoModels, type DemoModel, type MakeName } from './demoCatalogData';

/**
 * The grown demo's parts (demoCatalog.ts), a group of categories each: what each family is called, which bikes it
 * fits and how (position, quantity, note), its numbers, and the few earlier designs it replaced.
 */

/** K&N's letters for each maker in its air filters' numbers. */
const knMakeCodes: Record<MakeName, string> = {
  Honda: 'HA',
  Yamaha: 'YA',
  Kawasaki: 'KA',
  Suzuki: 'SU',
  KTM: 'KT',
  BMW: 'BM',
};

/** Lithium batteries offered beside the Yuasa of the same size (its number is their interchange). */
const lithiumFor: Record<string, string> = {
  YTZ10S: 'LFX09L1-BS12',
  YTZ14S: 'LFX14A4-BS12',
  'YTX14-BS': 'LFX14A4-BS12H',
  YTZ7S: 'LFX07A1-BS12',
};

const modelName = (m: DemoModel) => `${m.make} ${m.name}`;

/** "the Yamaha MT-07 and XSR700", "the Honda CB500F, CB650R and NC750X" (makes once, in order). */
function modelList(models: DemoModel[]): string {
  const byMake = new Map<string, string[]>();
  for (const m of models) byMake.set(m.make, [...(byMake.get(m.make) ?? []), m.name]);
  const phrases = [...byMake].map(([make, names]) =>
    names.length === 1 ? `${make} ${names[0]}` : `${make} ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`,
  );
  return phrases.length === 1 ? phrases[0] : `${phrases.slice(0, -1).join('; ')}; ${phrases.at(-1)}`;
}

const yearSpan = (models: DemoModel[]) => {
  const from = Math.min(...models.map((m) => m.years[0]));
  const to = Math.max(...models.map((m) => m.years[1]));
  return from === to ? `${from}` : `${from}–${to}`;
};

/** Brakes: each model's pads and discs, shared by the models that take its brakes (brakesAs). */
export function brakeParts({ random, fresh, ean, oems, fitting, fit, add, earlier }: DemoContext): void {
  let ebcFirst = true;
  let supersededPads = false;
  for (const m of demoModels.filter((model) => !model.brakesAs)) {
    const sharing = [m, ...demoModels.filter((other) => other.brakesAs === m.name)];
    const who = modelList(sharing);
    const years = yearSpan(sharing);
    const front = fitting(sharing, (s) => fit('front', s.discs));
    const rear = fitting(sharing, () => fit('rear'));
    const interchange = (): DemoNumber => ({
      kind: 'interchange',
      raw: fresh(() => `VD-${random.int(100, 999)}JL`),
      brand: 'Vesrah',
    });
    if (m.kind === 'dirt') {
      const [frontBrand, rearBrand] = ebcFirst ? ['EBC', 'Galfer'] : ['Galfer', 'EBC'];
      const pads = (brand: string, end: string) => {
        const raw = fresh(() => (brand === 'EBC' ? `MXS${random.int(200, 699)}` : `FD${random.int(100, 499)}G1375`));
        const line = brand === 'EBC' ? 'MXS Racing Sintered' : 'Sintered Off-Road';
        return { raw, name: `${brand} ${line} Brake Pads ${raw}`, end };
      };
      for (const [family, brand, fitments, end] of [
        ['padsFront', frontBrand, front, 'front'],
        ['padsRear', rearBrand, rear, 'rear'],
      ] as const) {
        const p = pads(brand, end);
        add(family, {
          name: p.name,
          description: `Sintered ${end} pads for the ${who} (${years}): full bite in mud and water, slow wear on sandy tracks.`,
          brand,
          numbers: [
            { kind: 'manufacturer', raw: p.raw, brand },
            ...oems(sharing, family),
            interchange(),
            ...ean(brand),
          ],
          fitments,
        });
      }
    } else {
      const [frontBrand, rearBrand] = ebcFirst ? ['EBC', 'SBS'] : ['SBS', 'EBC'];
      for (const [family, brand, fitments, end] of [
        ['padsFront', frontBrand, front, 'front'],
        ['padsRear', rearBrand, rear, 'rear'],
      ] as const) {
        const raw = fresh(() =>
          brand === 'EBC' ? `FA${random.int(200, 699)}HH` : `${random.int(600, 999)}${end === 'front' ? 'HS' : 'LS'}`,
        );
        const name =
          brand === 'EBC'
            ? `EBC Double-H Sintered Brake Pads ${raw}`
            : `SBS ${end === 'front' ? 'Dual Sinter' : 'Rear Sinter'} Brake Pads ${raw}`;
        const pads = add(family, {
          name,
          description: `Road-legal sintered ${end} pads for the ${who} (${years}): firm lever, steady bite from cold to track heat.`,
          brand,
          numbers: [{ kind: 'manufacturer', raw, brand }, ...oems(sharing, family), interchange(), ...ean(brand)],
          fitments,
        });
        // One road bike's EBC pads replaced the semi-sintered V-pads: the old number finds these.
        if (brand === 'EBC' && end === 'front' && !supersededPads) {
          supersededPads = true;
          const old = `${raw.slice(0, -2)}V`;
          earlier('padsFront', pads, `EBC V-Pad Semi-Sintered Brake Pads ${old}, earlier compound`, old);
        }
      }
      // Front discs; a model sold with and without ABS takes a disc of its own for each.
      const withAbs = (m.variants ?? []).some((v) => v.name === 'ABS');
      for (const absOnly of withAbs ? [false, true] : [false]) {
        const brand = m.kind === 'road' ? 'Brembo' : 'Galfer';
        const raw = fresh(() => (brand === 'Brembo' ? `78B408${random.digits(2)}` : `DF${random.int(100, 899)}CW`));
        const size = m.discs === 2 ? random.pick([310, 320, 330]) : random.pick([276, 290, 296]);
        add('disc', {
          name: `${brand} ${brand === 'Brembo' ? 'Serie Oro' : 'Wave'} Front Brake Disc ${size} mm${absOnly ? ', ABS' : ''} ${raw}`,
          description: `Floating stainless front disc, ${size} mm, for the ${who} (${years})${absOnly ? ' with ABS: it carries the ABS sensor ring' : ''}. Sold singly${m.discs === 2 ? '; the bike takes two' : ''}.`,
          brand,
          numbers: [{ kind: 'manufacturer', raw, brand }, ...oems(sharing, 'disc'), ...ean(brand)],
          fitments: fitting(sharing, (s, v) =>
            withAbs && (v.variant === 'ABS') !== absOnly ? null : fit('front', s.discs, absOnly ? 'with ABS only' : ''),
          ),
        });
      }
    }
    ebcFirst = !ebcFirst;
  }
}

/** Drive: chains by pitch (cut to each bike's links), sprockets by maker and teeth, a clutch kit per model. */
export function driveParts({ random, fresh, ean, oem, fitting, fit, add }: DemoContext): void {
  const chained = demoModels.filter((m) => m.chain);
  const chains: [brand: string, raw: string, line: string, fits: (m: DemoModel) => boolean][] = [
    ['DID', '520ERT3-120', 'ERT3 Gold MX', (m) => m.kind === 'dirt' && m.chain?.pitch === 520],
    ['RK', '520MXZ4-120', 'MXZ4 Heavy Duty MX', (m) => m.kind === 'dirt' && m.chain?.pitch === 520],
    ['EK', '520SRX2-120', 'SRX2 X-Ring', (m) => m.kind !== 'dirt' && m.chain?.pitch === 520],
    ['RK', '525XSO-120', 'XSO RX-Ring', (m) => m.chain?.pitch === 525],
    ['DID', '525ZVMX-120', 'ZVM-X Super Street X-Ring', (m) => m.chain?.pitch === 525],
  ];
  for (const [brand, raw, line, fits] of chains) {
    const models = chained.filter(fits);
    const pitch = raw.slice(0, 3);
    add('chain', {
      name: `${brand} ${pitch} ${line} Chain, 120 Links`,
      description: `${pitch} pitch ${line} chain with a rivet master link, 120 links: cut to length for the ${modelList(models)}.`,
      brand,
      numbers: [{ kind: 'manufacturer', raw: fresh(() => raw), brand }, ...ean(brand)],
      fitments: fitting(models, (m) =>
        fit('', 1, m.chain && m.chain.links < 120 ? `cut to ${m.chain.links} links` : ''),
      ),
      tiers: [
        [50, 0.93],
        [100, 0.88],
      ],
    });
  }
  for (const [family, end, index] of [
    ['sprocketFront', 'Front', 0],
    ['sprocketRear', 'Rear', 1],
  ] as const) {
    const groups = new Map<string, DemoModel[]>();
    for (const m of chained) {
      const key = `${m.make} ${m.chain?.pitch} ${m.teeth?.[index]}`;
      groups.set(key, [...(groups.get(key) ?? []), m]);
    }
    for (const models of groups.values()) {
      const [m] = models;
      const teeth = m.teeth?.[index];
      const raw = fresh(() => `JT${end[0]}${random.int(200, 1899)}.${teeth}`);
      add(family, {
        name: `JT ${end} Sprocket ${teeth}T, ${m.chain?.pitch} Pitch (${raw})`,
        description: `${end === 'Front' ? 'Chromoly steel' : 'Hardened carbon-steel'} ${end.toLowerCase()} sprocket, ${teeth} teeth, for the ${modelList(models)} (${yearSpan(models)}).`,
        brand: 'JT Sprockets',
        numbers: [{ kind: 'manufacturer', raw, brand: 'JT Sprockets' }, ...ean('JT Sprockets')],
        fitments: fitting(models, () => fit('')),
      });
    }
  }
  for (const m of demoModels) {
    const brand = m.kind === 'dirt' ? 'Vesrah' : 'EBC';
    const raw = fresh(() => (brand === 'EBC' ? `CK${random.int(1100, 5999)}` : `VC-${random.int(100, 999)}`));
    add('clutch', {
      name: `${brand} ${brand === 'EBC' ? 'CK' : 'Racing'} Clutch Kit ${raw}`,
      description: `Friction plates and steels for the ${modelName(m)} (${yearSpan([m])}), cork-based for a smooth take-up.`,
      brand,
      numbers: [{ kind: 'manufacturer', raw, brand }, oem(m.make, 'clutch', m.code), ...ean(brand)],
      fitments: fitting([m], () => fit('')),
    });
  }
}

/** Engine: oil filters shared by many bikes, an air filter per model, top-end gaskets for the dirt bikes. */
export function engineParts({ random, fresh, ean, oem, oems, fitting, fit, add, earlier }: DemoContext): void {
  const byFilter = new Map<string, DemoModel[]>();
  for (const m of demoModels) if (m.oilFilter) byFilter.set(m.oilFilter, [...(byFilter.get(m.oilFilter) ?? []), m]);
  for (const [code, models] of byFilter) {
    add('oil', {
      name: `HifloFiltro Oil Filter ${code}`,
      description: `Spin-on oil filter with a nitrile anti-drain-back valve, for the ${modelList(models)}.`,
      brand: 'HifloFiltro',
      numbers: [
        { kind: 'manufacturer', raw: fresh(() => code), brand: 'HifloFiltro' },
        { kind: 'interchange', raw: fresh(() => `KN-${code.slice(2)}`), brand: 'K&N' },
        ...oems(models, 'oil'),
        ...ean('HifloFiltro'),
      ],
      fitments: fitting(models, () => fit('')),
      tiers: [
        [200, 0.92],
        [500, 0.85],
      ],
    });
  }
  let supersededFilter = false;
  for (const m of demoModels) {
    const dirt = m.kind === 'dirt';
    const brand = dirt ? 'Twin Air' : 'K&N';
    const raw = fresh(() => (dirt ? `15${random.digits(4)}` : `${knMakeCodes[m.make]}-${random.int(1000, 9999)}`));
    const filter = add('air', {
      name: dirt ? `Twin Air Dual-Stage Foam Air Filter ${raw}` : `K&N High-Flow Air Filter ${raw}`,
      description: dirt
        ? `Oiled two-layer foam that stops fine dust on the ${modelName(m)} (${yearSpan([m])}); wash and re-oil between races.`
        : `Washable cotton-gauze filter for the ${modelName(m)} (${yearSpan([m])}), a drop-in for the paper original.`,
      brand,
      numbers: [{ kind: 'manufacturer', raw, brand }, oem(m.make, 'air', m.code), ...ean(brand)],
      fitments: fitting([m], () => fit('')),
      price: dirt ? [19, 29] : [49, 75],
    });
    if (dirt && !supersededFilter) {
      supersededFilter = true;
      earlier('air', filter, `Twin Air Foam Air Filter ${Number(raw) - 1}, earlier foam`, String(Number(raw) - 1));
    }
    if (dirt) {
      const gasket = fresh(() => `P400${random.digits(9)}`);
      add('gasket', {
        name: `Athena Top End Gasket Kit ${gasket}`,
        description: `Head, base and valve-cover gaskets with every seal for a top-end rebuild of the ${modelName(m)}.`,
        brand: 'Athena',
        numbers: [
          { kind: 'manufacturer', raw: gasket, brand: 'Athena' },
          oem(m.make, 'gasket', m.code),
          ...ean('Athena'),
        ],
        fitments: fitting([m], () => fit('')),
      });
    }
  }
}

/** Ignition: one plug per NGK number, one per cylinder. */
export function ignitionParts({ fresh, ean, fitting, fit, add }: DemoContext): void {
  const byPlug = new Map<string, DemoModel[]>();
  for (const m of demoModels) byPlug.set(m.plug, [...(byPlug.get(m.plug) ?? []), m]);
  const densoHeat: Record<string, number> = { '6': 20, '7': 22, '8': 24, '9': 27 };
  for (const [code, models] of byPlug) {
    const iridium = code.includes('I');
    const heat = densoHeat[/\d/.exec(code)?.[0] ?? '8'] ?? 24;
    add('plug', {
      // Words chosen so that a search for the demo's "Iridium Spark" plug still finds it alone.
      name: iridium ? `NGK Laser Iridium Plug ${code}` : `NGK Standard Spark Plug ${code}`,
      description: iridium
        ? `Fine iridium centre electrode and platinum ground tip, heat range ${/\d/.exec(code)?.[0]}, for the ${modelList(models)}. Boxes of 10.`
        : `Nickel-alloy electrode, heat range ${/\d/.exec(code)?.[0]}, as fitted new to the ${modelList(models)}. Boxes of 10.`,
      brand: 'NGK',
      numbers: [
        { kind: 'manufacturer', raw: fresh(() => code), brand: 'NGK' },
        { kind: 'interchange', raw: iridium ? `IU${heat}` : `U${heat}ESR-N`, brand: 'Denso' },
        ...ean('NGK'),
      ],
      fitments: fitting(models, (m) => fit('', m.cylinders)),
      price: iridium ? [9, 15] : [4, 6],
      packSize: 10,
      tiers: [
        [200, 0.92],
        [500, 0.85],
      ],
    });
  }
}

/** Electrical: batteries by size (a lithium one beside some), a regulator rectifier per maker's road bikes. */
export function electricalParts({ random, fresh, ean, oems, fitting, fit, add, earlier }: DemoContext): void {
  const byBattery = new Map<string, DemoModel[]>();
  for (const m of demoModels) if (m.battery) byBattery.set(m.battery, [...(byBattery.get(m.battery) ?? []), m]);
  for (const [code, models] of byBattery) {
    const fitments = fitting(models, () => fit(''));
    add('battery', {
      name: `Yuasa ${code} Maintenance-Free AGM Battery`,
      description: `Factory-sealed AGM battery, ready to fit, for the ${modelList(models)}.`,
      brand: 'Yuasa',
      numbers: [{ kind: 'manufacturer', raw: fresh(() => code), brand: 'Yuasa' }, ...ean('Yuasa')],
      fitments,
      price: [59, 129],
    });
    const lithium = lithiumFor[code];
    if (lithium) {
      add('battery', {
        name: `Shorai ${lithium} Lithium Battery`,
        description: `LiFePO4 battery in the ${code}'s case size at a third of its weight, for the ${modelList(models)}.`,
        brand: 'Shorai',
        numbers: [
          { kind: 'manufacturer', raw: fresh(() => lithium), brand: 'Shorai' },
          { kind: 'interchange', raw: code, brand: 'Yuasa' },
          ...ean('Shorai'),
        ],
        fitments,
        price: [149, 249],
      });
    }
  }
  for (const make of new Set(demoModels.map((m) => m.make))) {
    const models = demoModels.filter((m) => m.make === make && m.kind !== 'dirt');
    if (!models.length) continue;
    // Suzuki's regulator is the end of a chain of two replacements: the first series by the second, that by the third.
    const chain = make === 'Suzuki';
    const digits = random.int(100, 899);
    const raw = fresh(() => (chain ? `ESR${digits}-3` : `ESR${digits}`));
    const regulator = add('regulator', {
      name: `Electrosport MOSFET Regulator Rectifier ${raw}`,
      description: `Runs cooler than the original and charges steadily at idle, for the ${modelList(models)}.`,
      brand: 'Electrosport',
      numbers: [
        { kind: 'manufacturer', raw, brand: 'Electrosport' },
        ...oems(models, 'regulator'),
        ...ean('Electrosport'),
      ],
      fitments: fitting(models, () => fit('')),
    });
    if (chain) {
      const second = earlier(
        'regulator',
        regulator,
        `Electrosport Regulator Rectifier ESR${digits}, second series`,
        `ESR${digits}-2`,
      );
      earlier('regulator', second, `Electrosport Regulator Rectifier ESR${digits}, first series`, `ESR${digits}`);
    }
  }
}

/** Suspension: fork seal kits by tube diameter (a variant with its own fork takes its own kit, or none). */
export function suspensionParts({ random, fresh, ean, fitting, fit, add, vehiclesOf }: DemoContext): void {
  const forkOf = (m: DemoModel, variant: string) =>
    m.forkByVariant && variant in m.forkByVariant ? m.forkByVariant[variant] : m.fork;
  const diameters = [...new Set(demoModels.flatMap((m) => [m.fork, ...Object.values(m.forkByVariant ?? {})]))]
    .filter((d): d is number => d !== null)
    .sort((a, b) => a - b);
  for (const d of diameters) {
    const models = demoModels.filter((m) => (vehiclesOf.get(m) ?? []).some((v) => forkOf(m, v.variant) === d));
    add('forkSeals', {
      name: `All Balls Fork Oil & Dust Seal Kit ${d} mm`,
      description: `Two oil seals and two dust wipers for ${d} mm fork tubes: both legs of the ${modelList(models)}.`,
      brand: 'All Balls',
      numbers: [
        { kind: 'manufacturer', raw: fresh(() => `56-${random.int(100, 199)}`), brand: 'All Balls' },
        ...ean('All Balls'),
      ],
      fitments: fitting(models, (m, v) =>
        forkOf(m, v.variant) === d ? fit('front', 1, m.fork !== d ? `the ${v.variant}'s own ${d} mm fork` : '') : null,
      ),
    });
  }
}
