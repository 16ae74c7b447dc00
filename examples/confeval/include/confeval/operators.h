// What the operators of the language do to values: arithmetic with int/float promotion and
// overflow checks, comparison, equality and indexing.
#pragma once

#include "confeval/ast.h"
#include "confeval/source_location.h"
#include "confeval/value.h"

namespace confeval {

// `-x` (int or float; negating the most negative int overflows) and `!x` (bool only).
// Throws EvalError located at `where` (the operator).
Value apply_unary(UnaryOp op, const Value& operand, const SourceLocation& where);

// Every binary operator but && and ||, which the evaluator short-circuits. Rules:
//  + - * / % **  int op int is int (checked for overflow; / truncates toward zero, % takes
//                the sign of the dividend, int ** negative int is a float); an int with a
//                float is a float; a non-finite float result is an error
//  +             also concatenates two strings or two arrays
//  == !=         any two values (see loosely_equal)
//  < <= > >=     two numbers, or two strings (byte-wise)
// Throws EvalError located at `where` (the operator).
Value apply_binary(BinaryOp op, const Value& lhs, const Value& rhs, const SourceLocation& where);

// The language's `==`: numbers compare by value across int and float (1 == 1.0), arrays
// element-wise, other values only equal values of the same type.
bool loosely_equal(const Value& a, const Value& b);

// `container[index]` for arrays (an element) and strings (a one-character string); a
// negative index counts from the end. Throws EvalError located at `where`.
Value index_value(const Value& container, const Value& index, const SourceLocation& where);

}  // namespace confeval
