import { describe, expect, it } from 'vitest';
import { zoneRuleViolations } from './zone-rules';

const check = (records: Array<[string, string]>) =>
  zoneRuleViolations(
    'example.com',
    records.map(([name, record_type], line) => ({ name, record_type, line: line + 1 })),
  ).map((v) => [v.record.line, v.field, v.message]);

describe('zone rules', () => {
  it('accepts a zone that keeps them', () => {
    expect(
      check([
        ['@', 'A'],
        ['@', 'MX'],
        ['www', 'CNAME'],
        ['sub', 'NS'],
        ['sub', 'DS'],
        ['ns.sub', 'A'],
        ['old', 'DNAME'],
        ['@', 'NS'],
      ]),
    ).toEqual([]);
  });

  it('accepts an ALIAS at any name, a wildcard included, beside data other than addresses', () => {
    expect(
      check([
        ['@', 'ALIAS'],
        ['@', 'MX'],
        ['www', 'ALIAS'],
        ['www', 'TXT'],
        ['*.apps', 'ALIAS'],
        ['a.b.c', 'ALIAS'],
        ['sub', 'NS'],
        ['old', 'DNAME'],
        ['old', 'ALIAS'],
      ]),
    ).toEqual([]);
  });

  it.each([
    [[['@', 'CNAME']], [[1, 'record_type', 'a CNAME record cannot stand at the zone apex (RFC 1034 §3.6.2)']]],
    [
      [
        ['www', 'CNAME'],
        ['www', 'TXT'],
      ],
      [[2, 'name', 'www.example.com has a CNAME record; no other record can stand beside it (RFC 1034 §3.6.2)']],
    ],
    [
      [
        ['www', 'CNAME'],
        ['www', 'CNAME'],
      ],
      [[2, 'record_type', 'www.example.com can have only one CNAME record (RFC 2181 §10.1)']],
    ],
    [
      [
        ['old', 'DNAME'],
        ['old', 'DNAME'],
      ],
      [[2, 'record_type', 'old.example.com can have only one DNAME record (RFC 6672 §2.4)']],
    ],
    [
      [
        ['old', 'DNAME'],
        ['x.y.old', 'A'],
      ],
      [[2, 'name', 'x.y.old.example.com is below the DNAME at old.example.com; nothing may exist below a DNAME (RFC 6672 §2.4)']],
    ],
    [
      [
        ['@', 'DNAME'],
        ['www', 'A'],
      ],
      [[2, 'name', 'www.example.com is below the DNAME at example.com; nothing may exist below a DNAME (RFC 6672 §2.4)']],
    ],
    [
      [
        ['sub', 'NS'],
        ['sub', 'DNAME'],
      ],
      [[2, 'record_type', 'a DNAME cannot stand beside the NS records of a delegation at sub.example.com (RFC 6672 §2.4)']],
    ],
    [
      [['sub', 'DS']],
      [
        [
          1,
          'record_type',
          'a DS record stands only at a delegation: sub.example.com has no NS records (RFC 4035 §2.4); add the NS records first, or in the same change (Terraform: depends_on the NS record)',
        ],
      ],
    ],
    [
      [
        ['@', 'NS'],
        ['@', 'DS'],
      ],
      [[2, 'record_type', 'a DS record belongs in the parent zone, at the delegation (RFC 4035 §2.4)']],
    ],
    [
      [
        ['www', 'ALIAS'],
        ['www', 'ALIAS'],
      ],
      [[2, 'record_type', 'www.example.com can have only one ALIAS record: A and AAAA queries there get the addresses of one target']],
    ],
    [
      [
        ['www', 'A'],
        ['www', 'ALIAS'],
      ],
      [[2, 'record_type', "www.example.com has an ALIAS record, whose target's addresses are the A and AAAA answers there; no A or AAAA record can stand beside it"]],
    ],
    [
      [
        ['sub', 'NS'],
        ['sub', 'ALIAS'],
      ],
      [[2, 'record_type', 'an ALIAS cannot stand beside the NS records of a delegation at sub.example.com: the child zone answers there (RFC 1034 §4.2.1)']],
    ],
    [
      [
        ['sub', 'NS'],
        ['www.sub', 'ALIAS'],
      ],
      [
        [2, 'name', 'www.sub.example.com is below the delegation at sub.example.com: an ALIAS there would never be answered, the child zone answers for it (RFC 1034 §4.2.1)'],
        [1, 'name', 'www.sub.example.com is below the delegation at sub.example.com: an ALIAS there would never be answered, the child zone answers for it (RFC 1034 §4.2.1)'],
      ],
    ],
    [
      [
        ['old', 'DNAME'],
        ['x.old', 'ALIAS'],
      ],
      [[2, 'name', 'x.old.example.com is below the DNAME at old.example.com; nothing may exist below a DNAME (RFC 6672 §2.4)']],
    ],
  ] as Array<[Array<[string, string]>, unknown[]]>)('%j breaks a rule', (records, violations) => {
    expect(check(records)).toEqual(violations);
  });
});
