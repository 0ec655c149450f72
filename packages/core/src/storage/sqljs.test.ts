import { testStorage } from '../testing'
import createSqlJsStorage from './sqljs'

testStorage('sqljs', () => createSqlJsStorage())
