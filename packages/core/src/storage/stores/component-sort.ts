import { foldKey } from '../../identifiers'
import type { ComponentSortField } from '../../schemas/component'
import type { Dialect, SqlExecutor } from '../_internal/sql-executor'

// The sort keys of the component list (decision 0443): each an expression over
// `components c`, with what the keyset cursor must know of it.

export interface SortKey {
  /** The key's expression over `components c`; `c.id` for the id sort. */
  expr: string
  /** Some rows have no value (no category, no part number, no such parameter): they come last in both directions. */
  nullable: boolean
  /** The key is a number: the cursor keeps it as one. */
  numeric: boolean
  /** The key compares case-insensitively: the cursor's value is compared the same way. */
  nocase: boolean
  /** Both engines keep an index in this order (key, then id): a page can be read along it. */
  indexed?: true
}

const text = (expr: string): SortKey => ({ expr, nullable: false, numeric: false, nocase: false })

const COLUMNS: Record<ComponentSortField, (d: Dialect) => SortKey> = {
  id: () => ({ ...text('c.id'), indexed: true }),
  name: (d) => ({ ...text(d.nocase('c.name')), nocase: true, indexed: true }),
  ipn: () => ({ ...text('c.ipn'), indexed: true }),
  updatedAt: () => ({ ...text('c.updated_at'), indexed: true }),
  createdAt: () => text('c.created_at'),
  status: () => text('c.status'),
  category: (d) => ({ expr: d.nocase('c.category'), nullable: true, numeric: false, nocase: true }),
  // The manufacturer of the first part number, as the table shows it.
  manufacturer: (d) => ({
    expr: d.nocase('(SELECT f.name FROM mpns m JOIN manufacturers f ON f.id = m.manufacturer_id WHERE m.component_id = c.id ORDER BY m.position LIMIT 1)'),
    nullable: true,
    numeric: false,
    nocase: true,
  }),
  // The total over locations; a part with no stock rows has 0.
  stock: () => ({ expr: '(SELECT coalesce(sum(s.quantity), 0) FROM stock s WHERE s.component_id = c.id)', nullable: false, numeric: true, nocase: false }),
}

/**
 * The key of a sort (without its `-`). `parameter:<type>` sorts by the first
 * parameter of that type: by its number when the type is of kind `number` (or,
 * for a type not registered, when some value of it is a number), else by its
 * text. The type's name is written into the statement as a quoted literal:
 * the key appears in the select list, the cursor's condition and the order,
 * and a bound parameter would have to be repeated at each place, in order.
 */
export async function sortKey(ex: SqlExecutor, sort: string): Promise<SortKey> {
  if (!sort.startsWith('parameter:')) return COLUMNS[sort as ComponentSortField](ex.dialect)
  const type = sort.slice('parameter:'.length)
  const literal = `'${type.replace(/'/g, "''")}'`
  const numeric = await _numericType(ex, type)
  const first = (column: string, extra = '') =>
    `(SELECT p.${column} FROM component_parameters p${ex.dialect.indexedBy('component_parameters_component')} WHERE p.component_id = c.id AND p.type = ${literal}${extra} ORDER BY p.position LIMIT 1)`
  return numeric
    ? { expr: first('numeric', ' AND p.numeric IS NOT NULL'), nullable: true, numeric: true, nocase: false }
    : { expr: ex.dialect.nocase(first('value')), nullable: true, numeric: false, nocase: true }
}

async function _numericType(ex: SqlExecutor, type: string): Promise<boolean> {
  const registered = await ex.get<{ kind: string }>('SELECT kind FROM parameter_types WHERE name_key = ?', [foldKey(type)])
  if (registered) return registered.kind === 'number'
  return (await ex.get<{ x: number }>('SELECT 1 AS x FROM component_parameters WHERE type = ? AND numeric IS NOT NULL LIMIT 1', [type])) !== undefined
}
